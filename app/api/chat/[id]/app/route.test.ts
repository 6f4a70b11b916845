// GET /api/chat/[id]/app and POST /api/chat/[id]/app/call, called as the browser calls them (a real
// session cookie), after a real turn in which the model called our test server's tool with a view: the
// chat's owner gets the page with its own sandbox policy; a member of the team who cannot see the chat,
// another team's member, a signed-out caller and forged ids are refused (404 / 401) before anything is
// read; a view that is not a page or too large is a clear 4xx; a view's tool call runs for the owner.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined }),
}));

import { signUp } from "@/lib/auth/accounts";
import { db } from "@/lib/db/client";
import { closeAll } from "@/lib/mcp/pool";
import { probeServer } from "@/lib/mcp/probe";
import { encryptSecret } from "@/lib/security/keyring";
import type { TeamContext } from "@/lib/teams/team-context";
import { APP_BASE, signedInCookie } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";
import { readChunks, startUpstream } from "@/test/support/test-turns";
import { runTurn, storedTurn } from "@/test/support/turn-harness";
import { POST as callRoute } from "./call/route";
import { GET } from "./route";

const PASSWORD = "correct horse battery staple 42";
let stop: () => Promise<void>;
let mock: LLMock;
let server: RunningServer;
const as: Record<"owner" | "teammate" | "outsider", Headers> = {} as never;
let owner: TeamContext;
let chatId = "";

async function sessionOf(email: string): Promise<Headers> {
  return new Headers({ cookie: await signedInCookie(email, PASSWORD), origin: APP_BASE });
}

let n = 0;
async function callTool(tool: string, args: unknown = {}): Promise<string> {
  const prompt = `route test ${++n} ${tool}`;
  const id = `call_route_${n}`;
  mock.addFixture({ match: { userMessage: prompt, hasToolResult: false }, response: { toolCalls: [{ name: tool, arguments: JSON.stringify(args), id }] } });
  mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: `Done ${n}.` } });
  const done = storedTurn();
  await readChunks(await runTurn(owner, { chatId, text: prompt }, { onStored: done.onStored }));
  await done.promise;
  return id;
}

const page = (chat: string, call?: string) =>
  GET(new Request(`${APP_BASE}/api/chat/${chat}/app${call === undefined ? "" : `?call=${encodeURIComponent(call)}`}`), {
    params: Promise.resolve({ id: chat }),
  });

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  [mock, server] = await Promise.all([startUpstream(), startTestServer()]);
  const prisma = await db();
  const ids: Record<string, string> = {};
  for (const who of ["owner", "teammate", "outsider"])
    ids[who] = (await signUp({ name: who, email: `apps-${who}@example.com`, password: PASSWORD }, new Headers())).userId;
  const team = await prisma.team.create({ data: { name: "Apps" } });
  const elsewhere = await prisma.team.create({ data: { name: "Elsewhere" } });
  await prisma.membership.createMany({
    data: [
      { teamId: team.id, userId: ids.owner, role: "admin" },
      { teamId: team.id, userId: ids.teammate, role: "member" },
      { teamId: elsewhere.id, userId: ids.outsider, role: "admin" },
    ],
  });
  const provider = await prisma.provider.create({
    data: { teamId: team.id, name: "aimock", kind: "openai_chat", baseUrl: `${mock.url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") },
  });
  const model = await prisma.model.create({ data: { providerId: provider.id, modelId: "gpt-test", displayName: "gpt-test" } });
  await prisma.team.update({ where: { id: team.id }, data: { defaultModelId: model.id } });
  const summary = { id: team.id, name: team.name, role: "admin" as const };
  owner = { user: { id: ids.owner, name: "owner", email: "apps-owner@example.com" }, team: summary, teams: [summary] };
  const row = await prisma.mcpServer.create({ data: { teamId: team.id, name: "t", transport: "http", url: server.url, defaultPolicy: "auto" } });
  await probeServer(owner, row.id);
  const tools = await prisma.mcpTool.findMany({ where: { serverId: row.id } });
  chatId = (await prisma.chat.create({ data: { teamId: team.id, userId: ids.owner, toolSelection: { servers: [row.id], tools: tools.map((t) => t.id) } } })).id;
  for (const who of Object.keys(ids) as (keyof typeof as)[]) as[who] = await sessionOf(`apps-${who}@example.com`);
}, 180_000);
afterAll(async () => {
  await closeAll();
  await Promise.all([mock?.stop(), server?.stop()]);
  await stop?.();
});

describe("GET /api/chat/[id]/app", () => {
  it("gives the chat's owner the view's page with its own sandbox policy and no X-Frame-Options", async () => {
    const id = await callTool("t__show_card", { text: "hi" });
    requestHeaders = as.owner;
    const res = await page(chatId, id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    for (const d of ["sandbox allow-scripts", "frame-ancestors 'self'", "default-src 'none'", "connect-src https://api.example.com"]) expect(csp).toContain(d);
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(await res.text()).toContain("Test card");
  });

  it("refuses a teammate who cannot see the chat, another team, a signed-out caller and forged ids", async () => {
    const id = await callTool("t__show_card", { text: "private" });
    const cases: [Headers, string, string | undefined, number][] = [
      [as.teammate, chatId, id, 404],
      [as.outsider, chatId, id, 404],
      [new Headers(), chatId, id, 401],
      [as.owner, chatId, "call_forged", 404],
      [as.owner, "not-an-id!", id, 404],
      [as.owner, "c0000000000000000000000000", id, 404],
      [as.owner, chatId, undefined, 400],
      [as.owner, chatId, "bad id with spaces", 400],
    ];
    for (const [h, chat, call, status] of cases) {
      requestHeaders = h;
      const res = await page(chat, call);
      expect(res.status, `${chat} ${call}`).toBe(status);
      // A refusal is a page of the same kind that tells the block, and says nothing of the view.
      expect(res.headers.get("content-security-policy")).toContain("sandbox allow-scripts");
      const body = await res.text();
      expect(body).toContain("parley/app-error");
      expect(body).not.toContain("Test card");
    }
  });

  it("says clearly when the view is not a page or too large", async () => {
    requestHeaders = as.owner;
    const notHtml = await page(chatId, await callTool("t__app_not_html"));
    expect(notHtml.status).toBe(422);
    expect(await notHtml.text()).toContain("is not an MCP Apps page");
    const huge = await page(chatId, await callTool("t__app_huge"));
    expect(huge.status).toBe(422);
    expect(await huge.text()).toContain("too large");
  });
});

describe("POST /api/chat/[id]/app/call", () => {
  const post = (body: unknown, contentType = "application/json") =>
    callRoute(
      new Request(`${APP_BASE}/api/chat/${chatId}/app/call`, { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify(body) }),
      { params: Promise.resolve({ id: chatId }) },
    );

  it("runs a view's tool call for the owner; refuses others and bad bodies", async () => {
    const id = await callTool("t__show_card", { text: "x" });
    requestHeaders = as.owner;
    const ok = await post({ call: id, name: "card_stamp", arguments: { note: "hello" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ result: { content: [{ type: "text", text: "Stamped: hello" }] } });
    expect((await post({ call: id, name: "card_stamp", arguments: { note: "x" }, extra: 1 })).status).toBe(400);
    expect((await post({ call: id, name: "card_stamp" }, "text/plain")).status).toBe(415);
    requestHeaders = as.teammate;
    expect((await post({ call: id, name: "card_stamp", arguments: { note: "x" } })).status).toBe(404);
    requestHeaders = as.outsider;
    expect((await post({ call: id, name: "card_stamp", arguments: { note: "x" } })).status).toBe(404);
  });
});
