// POST /api/chat reads who asks, the chat they name (with its team's budgets) and the history side by
// side (lib/turn/turn-input.ts). The answers stay what they were: the
// caller's own chat in the team they act in is answered; another member's chat, the caller's chat in
// another team and a forged id are 404 with nothing written; no session, a forged or expired one is
// 401 whatever the body; a bad body from a signed-in caller is 400; a used-up budget still refuses the
// turn before the model is asked.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
let chosenTeam: string | undefined;
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: (name: string) => (name === "parley_team" && chosenTeam ? { name, value: chosenTeam } : undefined) }),
}));

import { signUp } from "@/lib/auth/accounts";
import { db } from "@/lib/db/client";
import { encryptSecret } from "@/lib/security/keyring";
import { APP_BASE, signedInCookie } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { startUpstream } from "@/test/support/test-turns";
import { POST } from "./route";

const PASSWORD = "correct horse battery staple 42";
let stop: () => Promise<void>;
let mock: LLMock;
const as: Record<"owner" | "teammate", string> = { owner: "", teammate: "" };
const chats = { own: "", ownInOtherTeam: "", teammates: "" };
const teams = { first: "", second: "" };

const signedIn = (email: string) => signedInCookie(email, PASSWORD);

async function teamWithModel(name: string): Promise<string> {
  const prisma = await db();
  const team = await prisma.team.create({ data: { name } });
  const provider = await prisma.provider.create({
    data: { teamId: team.id, name: "aimock", kind: "openai_chat", baseUrl: `${mock.url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") },
  });
  const model = await prisma.model.create({ data: { providerId: provider.id, modelId: "gpt-test", displayName: "gpt-test" } });
  await prisma.team.update({ where: { id: team.id }, data: { defaultModelId: model.id } });
  return team.id;
}

beforeAll(async () => {
  process.env.PARLEY_CHAT_RATE_LIMIT = "1000";
  ({ stop } = await startTestApp(DRIVERS[0]));
  mock = await startUpstream();
  mock.addFixture({ match: { userMessage: "caller: hello" }, response: { content: "Hello to the caller." } });
  const prisma = await db();
  const owner = await signUp({ name: "Owner", email: "caller-owner@example.com", password: PASSWORD }, new Headers());
  const teammate = await signUp({ name: "Mate", email: "caller-mate@example.com", password: PASSWORD }, new Headers());
  teams.first = await teamWithModel("First");
  teams.second = await teamWithModel("Second");
  // The owner's first membership is the first team: it is the team they act in unless they chose another.
  await prisma.membership.create({ data: { teamId: teams.first, userId: owner.userId, role: "admin" } });
  await prisma.membership.create({ data: { teamId: teams.first, userId: teammate.userId, role: "member" } });
  await prisma.membership.create({ data: { teamId: teams.second, userId: owner.userId, role: "member" } });
  chats.own = (await prisma.chat.create({ data: { teamId: teams.first, userId: owner.userId } })).id;
  chats.ownInOtherTeam = (await prisma.chat.create({ data: { teamId: teams.second, userId: owner.userId } })).id;
  chats.teammates = (await prisma.chat.create({ data: { teamId: teams.first, userId: teammate.userId } })).id;
  as.owner = await signedIn("caller-owner@example.com");
  as.teammate = await signedIn("caller-mate@example.com");
}, 180_000);
afterAll(async () => {
  await mock?.stop();
  await stop?.();
});

/** POSTs a body to /api/chat with this Cookie header and reads the whole answer (a refusal is JSON). */
async function post(cookie: string | undefined, body: unknown, team?: string): Promise<{ status: number; text: string }> {
  requestHeaders = new Headers({ ...(cookie ? { cookie } : {}), origin: APP_BASE });
  chosenTeam = team;
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  const res = await POST(new Request(`${APP_BASE}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: raw }));
  return { status: res.status, text: await res.text() };
}

const hello = (id: string) => ({ id, message: { role: "user", parts: [{ type: "text", text: "caller: hello" }] } });
const messagesIn = async (chatId: string) => (await db()).message.count({ where: { chatId } });

describe("POST /api/chat: who asks, and the chat they name", () => {
  it("answers the caller's own chat in the team they act in; another member's, another team's and forged ids are 404 and write nothing", async () => {
    const answered = await post(as.owner, hello(chats.own));
    expect(answered.status).toBe(200);
    expect(answered.text).toContain("Hello to the caller.");

    const before = { teammates: await messagesIn(chats.teammates), other: await messagesIn(chats.ownInOtherTeam) };
    for (const id of [chats.teammates, chats.ownInOtherTeam, "c0000000000000000000000000", "not-an-id!"]) {
      const refused = await post(as.owner, hello(id));
      expect(refused.status, id).toBe(404);
    }
    // The teammate asking in the owner's chat of their shared team: 404 as well.
    expect((await post(as.teammate, hello(chats.own))).status).toBe(404);
    expect({ teammates: await messagesIn(chats.teammates), other: await messagesIn(chats.ownInOtherTeam) }).toEqual(before);

    // Acting in the second team (the team cookie): its chat is answered, the first team's is 404.
    expect((await post(as.owner, hello(chats.ownInOtherTeam), teams.second)).status).toBe(200);
    expect((await post(as.owner, hello(chats.own), teams.second)).status).toBe(404);
    // A chosen team the caller is not a member of counts for nothing: they act in their first team.
    expect((await post(as.teammate, hello(chats.teammates), teams.second)).status).toBe(200);
  });

  it("no session, a forged or an expired one is 401 whatever the body; a bad body from a signed-in caller is 400", async () => {
    const [name, value] = as.owner.split("=");
    const tampered = `${name}=${value.slice(0, 5)}${value[5] === "A" ? "B" : "A"}${value.slice(6)}`;
    for (const cookie of [undefined, tampered, `${name}=unsigned-token`]) {
      expect((await post(cookie, hello(chats.own))).status).toBe(401);
      expect((await post(cookie, "{not json")).status).toBe(401);
    }
    expect((await post(as.owner, "{not json")).status).toBe(400);
    expect((await post(as.owner, { id: chats.own })).status).toBe(400);

    const prisma = await db();
    const expiring = await signUp({ name: "Gone", email: "caller-gone@example.com", password: PASSWORD }, new Headers());
    await prisma.membership.create({ data: { teamId: teams.first, userId: expiring.userId, role: "member" } });
    const gone = await signedIn("caller-gone@example.com");
    const own = (await prisma.chat.create({ data: { teamId: teams.first, userId: expiring.userId } })).id;
    expect((await post(gone, hello(own))).status).toBe(200);
    await prisma.session.updateMany({ where: { userId: expiring.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await post(gone, hello(own))).status).toBe(401);
    expect((await post(gone, "{not json")).status).toBe(401);
  });

  it("a budget read with the chat still refuses a turn over it before the model is asked, and writes nothing", async () => {
    const prisma = await db();
    const budget = await prisma.budget.create({ data: { teamId: teams.first, scope: "team", metric: "cost", limit: 0.5 } });
    const usage = await prisma.usageRecord.create({ data: { teamId: teams.first, model: "gpt-test", cost: 1 } });
    try {
      const asked = mock.getRequests().length;
      const before = await messagesIn(chats.own);
      const refused = await post(as.owner, hello(chats.own));
      expect(refused.status).toBe(402);
      expect(JSON.parse(refused.text).error.message).toMatch(/monthly budget .* is used up/);
      expect(await messagesIn(chats.own)).toBe(before);
      expect(mock.getRequests().length).toBe(asked);
    } finally {
      await prisma.usageRecord.delete({ where: { id: usage.id } });
      await prisma.budget.delete({ where: { id: budget.id } });
    }
    expect((await post(as.owner, hello(chats.own))).status).toBe(200);
  });
});
