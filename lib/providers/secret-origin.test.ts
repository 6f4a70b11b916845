// A stored key goes only to the server it was saved for, and the operator's key to no team admin.
// A capture server on loopback plays the admin's own server: whatever a team admin does with the
// forms (Test connection with another base URL and an empty key, saving another base URL, a turn
// after the URL changed, the operator's provider in a team created just now), it never receives a
// stored key. Real database, real HTTP.
import { generateText } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { teamWithProvider } from "@/test/support/test-turns";
import { db } from "../db/client";
import { createTeam } from "../teams/members";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { createProvider, deleteProvider, listProviders, providerRow, setProviderEnabled, testProviderSettings, updateProvider } from "./admin";
import { languageModel } from "./model-factory";
import { deleteModel, enableModels, pickerModels, saveModel, setTeamModels } from "./models";
import { listProviderModels } from "./probe";
import { resolveTurnModels } from "./resolve";
import { modelFormSchema, providerFormSchema } from "./schemas";
import { INSTANCE_PROVIDER_ID, seedAllTeams } from "./seed-env";
import { json, startScripted } from "@/test/support/test-upstreams";

type Upstream = Awaited<ReturnType<typeof startScripted>>;
const chatAnswer = {
  id: "c1",
  object: "chat.completion",
  created: 1,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
};
/** An OpenAI-compatible server: a model list and a one-word chat answer. */
const openaiLike = () => startScripted((req, res) => (req.path.endsWith("/models") ? json(res, 200, { data: [{ id: "m" }] }) : json(res, 200, chatAnswer)));

const KEY = "sk-live-OPERATOR-KEY-7f2c";
let operator: Upstream;
let thief: Upstream;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  operator = await openaiLike();
  thief = await openaiLike();
}, 120_000);
beforeEach(() => {
  thief.requests.splice(0);
});
afterAll(async () => {
  await operator?.stop();
  await thief?.stop();
  await stop?.();
});

/** Whether the capture server ever saw this secret, anywhere in a request. */
const sawSecret = (up: Upstream, secret: string) => JSON.stringify(up.requests).includes(secret);
const form = (over: Record<string, unknown> = {}) =>
  providerFormSchema.parse({ name: "Upstream", kind: "openai_compatible", baseUrl: `${operator.url}/v1`, apiKey: "", headers: "", enabled: "on", ...over });

describe("a stored key stays with the origin it was saved for", () => {
  it("Test connection and saving with another base URL and an empty key field are refused; the capture server sees no key", async () => {
    const { ctx, provider: legacy } = await teamWithProvider(operator.url); // an unbound (v1) key, as stored before
    const sealed = await createProvider(ctx, form({ name: "Sealed", apiKey: KEY, headers: "X-Org: org-SECRET-HEADER" }));
    for (const id of [sealed.id, legacy.id]) {
      const moved = form({ baseUrl: `${thief.url}/v1` });
      await expect(testProviderSettings(ctx, id, moved)).rejects.toMatchObject({
        status: 400,
        fieldErrors: { apiKey: expect.stringMatching(/enter this secret again/) },
      });
      await expect(updateProvider(ctx, id, moved)).rejects.toMatchObject({ status: 400, fieldErrors: { apiKey: expect.any(String) } });
      expect((await providerRow(ctx.team.id, id)).baseUrl).toBe(`${operator.url}/v1`);
      // Past the form's rule, the probe itself refuses to send the key elsewhere.
      const row = await providerRow(ctx.team.id, id);
      expect(await listProviderModels({ ...row, baseUrl: `${thief.url}/v1`, savedFor: row.baseUrl })).toMatchObject({ ok: false, status: 409 });
    }
    // The headers are secrets too: a new key alone does not carry the stored headers to the new origin.
    await expect(testProviderSettings(ctx, sealed.id, form({ baseUrl: `${thief.url}/v1`, apiKey: "sk-typed-for-thief" }))).rejects.toMatchObject({
      fieldErrors: { headers: expect.any(String) },
    });
    expect(thief.requests).toHaveLength(0);

    // Entering the secrets again for the new server is what it takes; only what was typed goes there.
    const typed = await testProviderSettings(ctx, sealed.id, form({ baseUrl: `${thief.url}/v1`, apiKey: "sk-typed-for-thief", clearHeaders: "on" }));
    expect(typed).toMatchObject({ ok: true });
    expect(thief.requests.at(-1)!.headers.authorization).toBe("Bearer sk-typed-for-thief");
    expect(sawSecret(thief, KEY) || sawSecret(thief, "sk-test-1234567890") || sawSecret(thief, "org-SECRET-HEADER")).toBe(false);

    // Another path on the same server keeps the stored key.
    expect(await testProviderSettings(ctx, sealed.id, form({ baseUrl: `${operator.url}/v1/` }))).toMatchObject({ ok: true });
    expect(operator.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a turn after the base URL changed outside the forms sends nothing to the new server", async () => {
    const { ctx } = await teamWithProvider(operator.url);
    const p = await createProvider(ctx, form({ name: "Turn", apiKey: KEY }));
    const prisma = await db();
    const model = await prisma.model.create({ data: { providerId: p.id, modelId: "m", displayName: "m" } });
    // As if the row had been changed without the form's rule (an old version, a bug, a script).
    await prisma.provider.update({ where: { id: p.id }, data: { baseUrl: `${thief.url}/v1` } });
    await expect(resolveTurnModels(ctx.team.id, model.id, { model: null, team: { defaultModel: null, fallbackModel: null } })).rejects.toMatchObject({
      status: 409,
    });
    const row = await providerRow(ctx.team.id, p.id);
    expect(() => languageModel(row, "m")).toThrow(/another server/);
    expect(thief.requests).toHaveLength(0);
  });

  it("a chat turn to a provider that redirects to another server fails visibly and the key does not follow", async () => {
    const bounce = await startScripted((_req, res) => {
      res.writeHead(307, { location: `${thief.url}/v1/chat/completions` });
      res.end();
    });
    try {
      const { ctx } = await teamWithProvider(operator.url);
      const p = await createProvider(ctx, form({ name: "Bounce", baseUrl: `${bounce.url}/v1`, apiKey: KEY }));
      const row = await providerRow(ctx.team.id, p.id);
      await expect(generateText({ model: languageModel(row, "m"), prompt: "hi", maxRetries: 0 })).rejects.toThrow();
      expect(bounce.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      expect(thief.requests).toHaveLength(0);
    } finally {
      await bounce.stop();
    }
  });
});

describe("the operator's provider from the environment", () => {
  it("is one instance provider: a brand-new team can use it, its admin can neither edit, probe nor delete it, and never sees the key", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${operator.url}/v1`, PARLEY_DEFAULT_MODEL: "op-model", PARLEY_PROVIDER_KIND: "chat" });
    try {
      const prisma = await db();
      await seedAllTeams(prisma);
      const { ctx: first } = await teamWithProvider(operator.url);
      const { teamId } = await createTeam(first, "Brand new");
      const ctx: TeamContext = {
        ...first,
        team: { id: teamId, name: "Brand new", role: "admin" },
        teams: [...first.teams, { id: teamId, name: "Brand new", role: "admin" }],
      };

      const views = await listProviders(teamId);
      expect(views).toEqual([expect.objectContaining({ id: INSTANCE_PROVIDER_ID, scope: "instance", apiKeyHint: null })]);
      expect(JSON.stringify(views)).not.toMatch(/OPERATOR|7f2c|v[12]:/);
      const instanceModel = await prisma.model.findUniqueOrThrow({ where: { providerId_modelId: { providerId: INSTANCE_PROVIDER_ID, modelId: "op-model" } } });
      expect((await prisma.team.findUniqueOrThrow({ where: { id: teamId } })).defaultModelId).toBe(instanceModel.id);

      const moved = form({ kind: "openai_chat", baseUrl: `${thief.url}/v1` });
      await expect(updateProvider(ctx, INSTANCE_PROVIDER_ID, moved)).rejects.toMatchObject({ status: 403 });
      await expect(testProviderSettings(ctx, INSTANCE_PROVIDER_ID, moved)).rejects.toMatchObject({ status: 403 });
      await expect(deleteProvider(ctx, INSTANCE_PROVIDER_ID)).rejects.toMatchObject({ status: 403 });
      await expect(setProviderEnabled(ctx, INSTANCE_PROVIDER_ID, false)).rejects.toMatchObject({ status: 403 });
      await expect(enableModels(ctx, INSTANCE_PROVIDER_ID, ["gpt-4o"])).rejects.toMatchObject({ status: 403 });
      await expect(saveModel(ctx, INSTANCE_PROVIDER_ID, instanceModel.id, modelFormSchema.parse({ modelId: "op-model", enabled: "on" }))).rejects.toMatchObject(
        { status: 403 },
      );
      await expect(deleteModel(ctx, instanceModel.id)).rejects.toMatchObject({ status: 403 });
      expect(thief.requests).toHaveLength(0);

      // Usable: picked, made the default, answering a turn with the operator's key at the operator's URL.
      expect((await pickerModels(teamId)).groups).toEqual([{ provider: "From environment", models: [expect.objectContaining({ id: instanceModel.id })] }]);
      await setTeamModels(ctx, { defaultModelId: instanceModel.id, fallbackModelId: "" });
      const { primary } = await resolveTurnModels(teamId, null, { model: null, team: { defaultModel: null, fallbackModel: null } });
      expect(primary.providerId).toBe(INSTANCE_PROVIDER_ID);
      await generateText({ model: primary.model, prompt: "hi" });
      expect(operator.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(sawSecret(thief, KEY)).toBe(false);
    } finally {
      for (const k of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "PARLEY_DEFAULT_MODEL", "PARLEY_PROVIDER_KIND"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
      await seedAllTeams(await db()); // no environment provider any more: disabled
    }
    expect((await (await db()).provider.findUniqueOrThrow({ where: { id: INSTANCE_PROVIDER_ID } })).enabled).toBe(false);
  });
});
