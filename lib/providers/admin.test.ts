// The admin side of providers against a real database and real HTTP peers: validation writes nothing,
// keys are stored encrypted and shown masked, edits keep the key, every change is audited without
// secrets, "Test connection" reports success or the provider's own error within its timeout, and
// "Fetch models" lists what the provider offers.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zodFieldErrors } from "../validation";
import { db } from "../db/client";
import { startUpstream, teamWithProvider } from "@/test/support/test-turns";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { createProvider, deleteProvider, getProvider, listProviders, providerRow, updateProvider } from "./admin";
import { deleteModel, enableModels, pickerModels, saveModel, setTeamModels } from "./models";
import { detectLocalServers, listProviderModels } from "./probe";
import { modelFormSchema, providerFormSchema } from "./schemas";
import { json, startScripted } from "../../test/support/test-upstreams";

let mock: LLMock;
let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  mock = await startUpstream();
  mock.addFixture({ match: { model: "llama-local", userMessage: "__never__" }, response: { content: "x" } });
  mock.addFixture({ match: { model: "qwen-local", userMessage: "__never__" }, response: { content: "x" } });
});
afterAll(async () => {
  await mock?.stop();
  await stop?.();
});

/** A loopback URL where nothing listens (a port just closed). */
async function closedUrl(): Promise<string> {
  const up = await startScripted(() => {});
  await up.stop();
  return up.url;
}

const KEY = "sk-live-SUPERSECRET-9f3a";
const form = (over: Record<string, unknown> = {}) =>
  providerFormSchema.parse({
    name: "Local",
    kind: "openai_compatible",
    baseUrl: `${mock.url}/v1`,
    apiKey: KEY,
    headers: "X-Org: org-HEADERSECRET",
    enabled: "on",
    ...over,
  });

/** The field errors the form shows for this input. */
function fieldErrors(input: Record<string, unknown>): Record<string, string> {
  const parsed = providerFormSchema.safeParse(input);
  return parsed.success ? {} : zodFieldErrors(parsed.error);
}

describe("provider form validation", () => {
  it("refuses an invalid URL, an empty name, an unknown kind, a missing base URL and bad headers", () => {
    expect(fieldErrors({ name: "x", kind: "openai_compatible", baseUrl: "not a url" })).toHaveProperty("baseUrl");
    expect(fieldErrors({ name: "x", kind: "openai_compatible", baseUrl: "ftp://example.com" })).toHaveProperty("baseUrl");
    expect(fieldErrors({ name: "  ", kind: "openai_chat" })).toHaveProperty("name");
    expect(fieldErrors({ name: "x", kind: "gemini" })).toHaveProperty("kind");
    expect(fieldErrors({ name: "x", kind: "openai_compatible", baseUrl: "" })).toEqual({ baseUrl: "This kind of provider needs a base URL." });
    expect(fieldErrors({ name: "x", kind: "openai_chat", headers: "no colon here" })).toHaveProperty("headers");
    expect(fieldErrors({ name: "x", kind: "openai_chat", baseUrl: "" })).toEqual({});
  });

  it("refuses model options that are not JSON objects keyed by provider", () => {
    const err = (providerOptions: string) => modelFormSchema.safeParse({ modelId: "m", providerOptions }).error?.issues[0]?.message;
    expect(err("{not json")).toMatch(/Not valid JSON/);
    expect(err('{"reasoningEffort": "low"}')).toMatch(/object of objects/);
    expect(err("[1,2]")).toMatch(/object of objects/);
    expect(modelFormSchema.parse({ modelId: "m", providerOptions: '{"openai": {"reasoningEffort": "low"}}' }).providerOptions).toEqual({
      openai: { reasoningEffort: "low" },
    });
  });
});

describe("providers", () => {
  it("stores the key encrypted, shows it masked, keeps it on an edit with an empty key, and audits without secrets", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const created = await createProvider(ctx, form());
    expect(created.apiKeyHint).toBe("sk-...9f3a");
    expect(created.headerNames).toEqual(["X-Org"]);
    expect(JSON.stringify(created)).not.toMatch(/SUPERSECRET|HEADERSECRET|v[12]:/);
    const raw = await providerRow(ctx.team.id, created.id);
    // Sealed for the base URL's origin (v2: the origin is authenticated data of the ciphertext).
    expect(raw.apiKeyEnc).toMatch(/^v2:/);
    expect(raw.apiKeyEnc).not.toContain("SUPERSECRET");

    const edited = await updateProvider(ctx, created.id, form({ name: "Local 2", apiKey: "", headers: "" }));
    expect(edited.name).toBe("Local 2");
    expect(edited.apiKeyHint).toBe("sk-...9f3a");
    expect((await providerRow(ctx.team.id, created.id)).apiKeyEnc).toBe(raw.apiKeyEnc);
    expect(edited.headerNames).toEqual(["X-Org"]);

    const cleared = await updateProvider(ctx, created.id, form({ name: "Local 2", apiKey: "", clearApiKey: "on", headers: "" }));
    expect(cleared.apiKeyHint).toBeNull();
    expect((await providerRow(ctx.team.id, created.id)).apiKeyEnc).toBeNull();

    await deleteProvider(ctx, created.id);
    await expect(getProvider(ctx.team.id, created.id)).rejects.toMatchObject({ status: 404 });
    const events = await (await db()).auditEvent.findMany({ where: { teamId: ctx.team.id, targetId: created.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["provider.create", "provider.update", "provider.update", "provider.delete"]);
    expect(JSON.stringify(events)).not.toMatch(/SUPERSECRET|HEADERSECRET/);
  });

  it("refuses a duplicate name (any case) with a field error and saves nothing", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    await createProvider(ctx, form({ name: "Twin" }));
    await expect(createProvider(ctx, form({ name: "twin" }))).rejects.toMatchObject({ status: 409, fieldErrors: { name: expect.any(String) } });
    expect((await listProviders(ctx.team.id)).filter((p) => p.name.toLowerCase() === "twin")).toHaveLength(1);
    // "_" and "%" are plain characters, not wildcards.
    await createProvider(ctx, form({ name: "my-box" }));
    await createProvider(ctx, form({ name: "my_box" }));
    await createProvider(ctx, form({ name: "100%" }));
    expect((await listProviders(ctx.team.id)).map((p) => p.name)).toEqual(expect.arrayContaining(["my-box", "my_box", "100%"]));
  });

  it("another team's provider is 404", async () => {
    const a = await teamWithProvider(mock.url);
    const b = await teamWithProvider(mock.url);
    await expect(updateProvider(b.ctx, a.provider.id, form({ name: "Hijack" }))).rejects.toMatchObject({ status: 404 });
    await expect(deleteProvider(b.ctx, a.provider.id)).rejects.toMatchObject({ status: 404 });
    expect((await providerRow(a.ctx.team.id, a.provider.id)).name).toBe("aimock");
  });
});

describe("test connection and fetch models", () => {
  it("lists the models of an OpenAI-compatible server", async () => {
    const r = await listProviderModels({ kind: "openai_compatible", baseUrl: `${mock.url}/v1`, apiKeyEnc: null, headersEnc: null });
    expect(r).toMatchObject({ ok: true, models: ["llama-local", "qwen-local"] });
  });

  it("reports a 401 as its status and a generic reason (never the body), sends the key and the extra headers", async () => {
    const { encryptSecret } = await import("../security/keyring");
    const up = await startScripted((_req, res) =>
      json(res, 401, { error: { message: "Incorrect API key provided: sk-...9f3a", type: "invalid_request_error" } }),
    );
    try {
      const r = await listProviderModels({
        kind: "openai_chat",
        baseUrl: `${up.url}/v1`,
        apiKeyEnc: encryptSecret(KEY),
        headersEnc: encryptSecret('{"X-Org":"o1"}'),
      });
      expect(r).toMatchObject({ ok: false, status: 401, message: "HTTP 401: the provider refused the credentials. Check the API key." });
      expect(up.requests[0].path).toBe("/v1/models");
      expect(up.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
      expect(up.requests[0].headers["x-org"]).toBe("o1");
    } finally {
      await up.stop();
    }
  });

  it("Anthropic: GET /v1/models with x-api-key and a version header", async () => {
    const { encryptSecret } = await import("../security/keyring");
    const up = await startScripted((_req, res) =>
      json(res, 200, {
        data: [
          { id: "claude-b", type: "model" },
          { id: "claude-a", type: "model" },
        ],
        has_more: false,
      }),
    );
    try {
      const r = await listProviderModels({ kind: "anthropic", baseUrl: `${up.url}/v1`, apiKeyEnc: encryptSecret(KEY), headersEnc: null });
      expect(r).toMatchObject({ ok: true, models: ["claude-a", "claude-b"] });
      expect(up.requests[0].path).toMatch(/^\/v1\/models/);
      expect(up.requests[0].headers["x-api-key"]).toBe(KEY);
      expect(up.requests[0].headers["anthropic-version"]).toBeTruthy();
      expect(up.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await up.stop();
    }
  });

  it("gives up after the timeout instead of hanging", async () => {
    const up = await startScripted(() => new Promise(() => {}));
    try {
      // The upstream never answers: only the 300 ms timeout ends the wait, and the message names it.
      const r = await listProviderModels({ kind: "openai_compatible", baseUrl: `${up.url}/v1`, apiKeyEnc: null, headersEnc: null }, { timeoutMs: 300 });
      expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/No answer from .* within 300 ms/) });
    } finally {
      await up.stop();
    }
  });

  it("says so when the answer is not JSON (a web page at the base URL)", async () => {
    const up = await startScripted((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>Welcome to nginx!</body></html>");
    });
    try {
      const r = await listProviderModels({ kind: "openai_compatible", baseUrl: up.url, apiKeyEnc: null, headersEnc: null });
      expect(r).toMatchObject({ ok: false, status: 200, message: expect.stringMatching(/text\/html, not the JSON model list/) });
    } finally {
      await up.stop();
    }
  });

  it("a closed port is a clear connection error", async () => {
    const r = await listProviderModels({ kind: "openai_compatible", baseUrl: `${await closedUrl()}/v1`, apiKeyEnc: null, headersEnc: null });
    expect(r).toMatchObject({ ok: false, message: expect.stringMatching(/connection refused/) });
  });

  it("suggests a local server only when it answers", async () => {
    const found = await detectLocalServers(1000, [
      { name: "Up", baseUrl: `${mock.url}/v1` },
      { name: "Down", baseUrl: `${await closedUrl()}/v1` },
    ]);
    expect(found).toEqual([{ name: "Up", baseUrl: `${mock.url}/v1`, models: 2 }]);
  });
});

describe("models", () => {
  it("enabled models appear in the picker grouped by provider; the first becomes the default; deleting clears it", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const prisma = await db();
    await prisma.team.update({ where: { id: ctx.team.id }, data: { defaultModelId: null } });
    await prisma.model.updateMany({ where: { provider: { teamId: ctx.team.id } }, data: { enabled: false } });
    const p = await createProvider(ctx, form({ name: "Ollama" }));
    await enableModels(ctx, p.id, ["qwen-local", "llama-local"]);
    const picker = await pickerModels(ctx.team.id);
    expect(picker.groups).toEqual([
      { provider: "Ollama", models: [expect.objectContaining({ name: "llama-local" }), expect.objectContaining({ name: "qwen-local" })] },
    ]);
    const team = await prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id } });
    expect(team.defaultModelId).toBe(picker.defaultModelId);
    await deleteModel(ctx, team.defaultModelId!);
    const after = await prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id } });
    expect(after.defaultModelId).not.toBe(team.defaultModelId);
    expect(after.defaultModelId).toBeTruthy();
  });

  it("a deleted model leaves no trace: not the team's default or fallback, not a chat's choice; nor do a deleted provider's models", async () => {
    const { ctx, chat, provider, model } = await teamWithProvider(mock.url);
    const prisma = await db();
    const second = await prisma.model.create({ data: { providerId: provider.id, modelId: "second", displayName: "second" } });
    await prisma.team.update({ where: { id: ctx.team.id }, data: { fallbackModelId: second.id } });
    await prisma.chat.update({ where: { id: chat.id }, data: { modelId: second.id } });
    await deleteModel(ctx, second.id);
    expect(await prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id } })).toMatchObject({ defaultModelId: model.id, fallbackModelId: null });
    expect(await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).toMatchObject({ modelId: null });

    await prisma.chat.update({ where: { id: chat.id }, data: { modelId: model.id } });
    await deleteProvider(ctx, provider.id);
    expect(await prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id } })).toMatchObject({ defaultModelId: null, fallbackModelId: null });
    expect(await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).toMatchObject({ modelId: null });
  });

  it("web search only for OpenAI Responses providers; duplicate ids refused; fallback must be usable and differ", async () => {
    const { ctx, provider, model } = await teamWithProvider(mock.url, "openai_chat");
    const input = modelFormSchema.parse({ modelId: "gpt-x", webSearch: "on", enabled: "on" });
    await expect(saveModel(ctx, provider.id, undefined, input)).rejects.toMatchObject({ status: 400, fieldErrors: { webSearch: expect.any(String) } });
    await expect(saveModel(ctx, provider.id, undefined, modelFormSchema.parse({ modelId: model.modelId, enabled: "on" }))).rejects.toMatchObject({
      status: 409,
    });
    const prisma = await db();
    expect(await prisma.model.count({ where: { providerId: provider.id } })).toBe(1);
    await expect(setTeamModels(ctx, { defaultModelId: model.id, fallbackModelId: model.id })).rejects.toMatchObject({
      fieldErrors: { fallbackModelId: expect.any(String) },
    });
    await expect(setTeamModels(ctx, { defaultModelId: "nope", fallbackModelId: "" })).rejects.toMatchObject({
      fieldErrors: { defaultModelId: expect.any(String) },
    });
  });
});
