// POST /api/chat called as the browser calls it (a real session cookie), against a scripted model that
// asks for an approval-needing MCP tool (our test server's search) at every step: decisions on the
// cards are not messages, so many quick Approve clicks are never refused as "sending messages too
// fast" (PARLEY_CHAT_RATE_LIMIT counts messages only); messages are still limited.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined }),
}));

import { getAuth } from "@/lib/auth/auth";
import { signUp } from "@/lib/auth/accounts";
import { db } from "@/lib/db/client";
import { closeAll } from "@/lib/mcp/pool";
import { probeServer } from "@/lib/mcp/probe";
import { encryptSecret } from "@/lib/security/keyring";
import { APP_BASE, Browser } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";
import { startUpstream } from "@/test/support/test-turns";
import { POST } from "./route";

const PASSWORD = "correct horse battery staple 42";
const MESSAGES_A_MINUTE = 2;
let stop: () => Promise<void>;
let mock: LLMock;
let server: RunningServer;
let chatId = "";

beforeAll(async () => {
  process.env.PARLEY_CHAT_RATE_LIMIT = String(MESSAGES_A_MINUTE);
  ({ stop } = await startTestApp(DRIVERS[0]));
  [mock, server] = await Promise.all([startUpstream(), startTestServer()]);
  // The model asks to search at every step, whatever it was told.
  mock.addFixture({ match: { userMessage: "rate: search on and on" }, response: { toolCalls: [{ name: "t__search", arguments: '{"q":"again"}' }] } });
  mock.addFixture({ match: { userMessage: "rate: a message" }, response: { content: "A message answered." } });
  const prisma = await db();
  const { userId } = await signUp({ name: "Rate", email: "rate-owner@example.com", password: PASSWORD }, new Headers());
  const team = await prisma.team.create({ data: { name: "Rates" } });
  await prisma.membership.create({ data: { teamId: team.id, userId, role: "admin" } });
  const provider = await prisma.provider.create({
    data: { teamId: team.id, name: "aimock", kind: "openai_chat", baseUrl: `${mock.url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") },
  });
  const model = await prisma.model.create({ data: { providerId: provider.id, modelId: "gpt-test", displayName: "gpt-test" } });
  await prisma.team.update({ where: { id: team.id }, data: { defaultModelId: model.id } });
  const summary = { id: team.id, name: team.name, role: "admin" as const };
  const owner = { user: { id: userId, name: "Rate", email: "rate-owner@example.com" }, team: summary, teams: [summary] };
  // Every call of this server asks first.
  const row = await prisma.mcpServer.create({ data: { teamId: team.id, name: "t", transport: "http", url: server.url, defaultPolicy: "ask" } });
  await probeServer(owner, row.id);
  const tools = await prisma.mcpTool.findMany({ where: { serverId: row.id, name: "search" } });
  chatId = (await prisma.chat.create({ data: { teamId: team.id, userId, toolSelection: { servers: [row.id], tools: tools.map((t) => t.id) } } })).id;
  const browser = new Browser(await getAuth());
  const res = await browser.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "rate-owner@example.com", password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  requestHeaders = new Headers({ cookie: browser.jar.header(), origin: APP_BASE });
}, 180_000);
afterAll(async () => {
  await closeAll();
  await Promise.all([mock?.stop(), server?.stop()]);
  await stop?.();
});

/** POSTs a body to /api/chat and reads the whole answer (a refusal is JSON). */
async function post(body: unknown): Promise<{ status: number; text: string }> {
  const res = await POST(new Request(`${APP_BASE}/api/chat`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
  return { status: res.status, text: await res.text() };
}

const message = (text: string) => ({ id: chatId, message: { role: "user", parts: [{ type: "text", text }] } });

/** The call waiting for a person in the chat's last answer (what its card's Approve decides). */
async function waitingCall(): Promise<string | undefined> {
  const prisma = await db();
  const last = await prisma.message.findFirst({
    where: { chatId, role: "assistant" },
    orderBy: { seq: "desc" },
    include: { blocks: { where: { status: "approval-requested" } } },
  });
  return last?.blocks[0]?.approvalId ?? undefined;
}

describe("POST /api/chat: decisions and the message rate limit", () => {
  it("many quick decisions are never refused as messages sent too fast; messages still are", async () => {
    expect((await post(message("rate: search on and on"))).status).toBe(200);
    // Three times the message limit in quick Approve clicks: each continues the answer, which asks again.
    for (let i = 0; i < MESSAGES_A_MINUTE * 3; i++) {
      const approvalId = await waitingCall();
      expect(approvalId, `a call waits before decision ${i + 1}`).toBeDefined();
      const decided = await post({ id: chatId, approvals: [{ approvalId, approved: true }] });
      expect(decided.text).not.toMatch(/too fast/);
      expect(decided.status, `decision ${i + 1}`).toBe(200);
    }
    const prisma = await db();
    expect(await prisma.block.count({ where: { message: { chatId }, kind: "tool", status: "output-available" } })).toBe(MESSAGES_A_MINUTE * 3);

    // The second message of the minute is answered; the third is refused with 429, and nothing is stored.
    expect((await post(message("rate: a message"))).status).toBe(200);
    const before = await prisma.message.count({ where: { chatId } });
    const refused = await post(message("rate: a message"));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toMatch(/sending messages too fast/);
    expect(await prisma.message.count({ where: { chatId } })).toBe(before);
  });
});
