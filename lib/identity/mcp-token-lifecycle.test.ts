// A member's own OAuth tokens at an MCP server over their life, against a real authorization server
// (oidc-provider, short access-token lifetimes, refresh-token rotation for public clients, revocation)
// and a real protected MCP server on loopback, with the app's database. Expired: the next tool call
// refreshes without the member noticing, stores the rotated tokens, and calls made at the same moment
// all go through. Revoked, or a refresh the authorization server refuses: the member is left with
// "Connect again" (the answer's notice, the call's error code, Settings), their calls never go out
// with another member's token, and the other members' connections are untouched. The authorization
// server down: nothing is lost, and calls work again once it is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, startTestApp, teamMember } from "@/test/support/test-app";
import { loginHeadless, startMcpAuthStack, type McpAuthStack } from "@/test/support/mcp-auth-server";
import { closeAll } from "../mcp/pool";
import { ToolError } from "../tools/error-codes";
import { assembleTools } from "../tools/tool-set";
import { credentialStore, listConnections, serversNeedingConnect } from "./mcp-credentials";
import { finishConnect, startConnect } from "./mcp-connect";

const APP = "http://127.0.0.1:3999";
const CALLBACK = `${APP}/api/mcp/oauth/callback`;

let stop: () => Promise<void>;
/** Access tokens live two seconds: each call after that finds the member's token expired. */
let short: McpAuthStack;
/** Access tokens live an hour (Parley thinks them valid; the server may still refuse them). */
let long: McpAuthStack;
beforeAll(async () => {
  process.env.PARLEY_ALLOW_PRIVATE_URLS = "1";
  ({ stop } = await startTestApp(DRIVERS[0]));
  short = await startMcpAuthStack({ accessTokenTtlSec: 2 });
  long = await startMcpAuthStack();
}, 300_000);
afterAll(async () => {
  await closeAll();
  await short?.close();
  await long?.close();
  await stop?.();
});

type Server = { id: string; url: string | null };

/** A team of members and the stack's MCP server in it, set to "each member connects their own account". */
async function teamAt(stack: McpAuthStack, names: string[]) {
  const prisma = await db();
  const team = await prisma.team.create({ data: { name: `Team ${Date.now()}${Math.random()}` } });
  const members = await Promise.all(names.map((n) => teamMember(team.id, n)));
  const server = await prisma.mcpServer.create({
    data: { teamId: team.id, name: "Protected", transport: "http", url: stack.mcpUrl, authMode: "oauth", connectTimeoutMs: 10_000 },
  });
  return { members, server };
}

/** The member's Connect: start, log in at the provider's pages as `account`, come back. */
async function connect(ctx: TeamContext, server: Server, account: string) {
  const back = await loginHeadless(await startConnect(ctx, server.id, { appUrl: APP }), account, CALLBACK);
  await finishConnect(ctx.user.id, back.searchParams.get("state"), { code: back.searchParams.get("code"), iss: back.searchParams.get("iss") });
}

/** The member's call of `whoami` as a turn makes it: the answer, or the error code the tool block shows. */
async function whoami(ctx: TeamContext, server: Server): Promise<{ text?: string; code?: string; notices: { code: string; serverId?: string }[] }> {
  const prisma = await db();
  const rows = await prisma.mcpTool.findMany({ where: { serverId: server.id } });
  const turn = await assembleTools({ teamId: ctx.team.id, userId: ctx.user.id, selection: { servers: [server.id], tools: rows.map((t) => t.id) } });
  const tool = Object.values(turn.tools)[0];
  if (!tool) return { notices: turn.notices };
  try {
    let last: unknown;
    for await (const out of tool.execute!({}, { toolCallId: `call_${Math.random()}`, messages: [], context: undefined }) as AsyncIterable<unknown>) last = out;
    return { text: (last as { content: { text: string }[] }).content[0].text, notices: turn.notices };
  } catch (err) {
    if (err instanceof ToolError) return { code: err.code, notices: turn.notices };
    throw err;
  }
}

/** What the member sees of their connection: Settings → Connections, and the Tools picker. */
async function seen(ctx: TeamContext, server: Server) {
  const view = (await listConnections(ctx.team.id, ctx.user.id)).find((v) => v.serverId === server.id);
  return { settings: view?.state, pickerSaysConnect: (await serversNeedingConnect(ctx.team.id, ctx.user.id)).has(server.id) };
}

/**
 * "Connect again" in the answer: the call's block fails with ConnectRequired (the tools were listed
 * before the token was refused) or the answer starts without the server's tools and with the Connect
 * notice (refused while listing them). Never an answer from the server.
 */
function asksToConnect(r: Awaited<ReturnType<typeof whoami>>, server: Server): boolean {
  return (
    r.text === undefined &&
    (r.code === "ConnectRequired" || (r.code === undefined && r.notices.some((n) => n.code === "ConnectRequired" && n.serverId === server.id)))
  );
}

const stored = async (ctx: TeamContext, server: Server) => (await credentialStore(server, ctx.user.id).read()).tokens;

/** The protected server's answer to `token` alone (200, or 401 once it no longer takes it). */
async function statusFor(stack: McpAuthStack, token: string): Promise<number> {
  const res = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    }),
  });
  await res.body?.cancel();
  return res.status;
}

/** Waits until the authorization server's own clock has expired `token` (the server refuses it). */
async function untilExpired(stack: McpAuthStack, token: string) {
  await expect.poll(() => statusFor(stack, token), { timeout: 15_000, interval: 200 }).toBe(401);
}

describe("a member's token expires", () => {
  it("the next call refreshes it without the member noticing, and the rotated refresh token is kept", async () => {
    const {
      members: [alice],
      server,
    } = await teamAt(short, ["alice"]);
    await connect(alice, server, "alice-at-idp");
    for (let round = 0; round < 2; round++) {
      const before = (await stored(alice, server))!;
      await untilExpired(short, before.access_token);
      const refreshes = short.refreshes();
      expect(await whoami(alice, server)).toEqual({ text: "You are alice-at-idp", notices: [] });
      expect(short.refreshes()).toBeGreaterThan(refreshes);
      const after = (await stored(alice, server))!;
      expect(after.access_token).not.toBe(before.access_token);
      // Rotation: the provider gave a new refresh token and spent the old one; the next round only
      // succeeds if the new one was stored.
      expect(after.refresh_token).toBeTruthy();
      expect(after.refresh_token).not.toBe(before.refresh_token);
      expect(await seen(alice, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
    }
  }, 90_000);

  it("calls made at the same moment with an expired token all go through, and the member stays connected", async () => {
    const {
      members: [bob],
      server,
    } = await teamAt(short, ["bob"]);
    await connect(bob, server, "bob-at-idp");
    // Bob used the tool earlier in the chat (his session is open), then his token expired.
    expect(await whoami(bob, server)).toMatchObject({ text: "You are bob-at-idp" });
    await untilExpired(short, (await stored(bob, server))!.access_token);
    const answers = await Promise.all([whoami(bob, server), whoami(bob, server), whoami(bob, server)]);
    expect(answers.map((a) => a.text ?? a.code ?? a.notices[0]?.code)).toEqual(Array(3).fill("You are bob-at-idp"));
    expect(await seen(bob, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
    expect(await whoami(bob, server)).toMatchObject({ text: "You are bob-at-idp" });
  }, 90_000);

  it("calls made at the same moment with a token the server no longer takes (before its stated expiry) all go through", async () => {
    const {
      members: [carol],
      server,
    } = await teamAt(long, ["carol"]);
    await connect(carol, server, "carol-at-idp");
    expect(await whoami(carol, server)).toMatchObject({ text: "You are carol-at-idp" });
    expect(await long.expireAccessTokens("carol-at-idp")).toBeGreaterThan(0);
    const answers = await Promise.all([whoami(carol, server), whoami(carol, server), whoami(carol, server)]);
    expect(answers.map((a) => a.text ?? a.code ?? a.notices[0]?.code)).toEqual(Array(3).fill("You are carol-at-idp"));
    expect(await seen(carol, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
  }, 90_000);
});

/** Revokes the member's refresh token at the authorization server's revocation endpoint (RFC 7009), as Disconnect would. */
async function revokeAtServer(ctx: TeamContext, server: Server) {
  const record = await credentialStore(server, ctx.user.id).read();
  const endpoint = (record.discovery?.authorizationServerMetadata as { revocation_endpoint?: string }).revocation_endpoint!;
  const body = new URLSearchParams({ token: record.tokens!.refresh_token!, token_type_hint: "refresh_token", client_id: record.clientInformation!.client_id });
  const res = await fetch(endpoint, { method: "POST", body });
  expect(res.status).toBe(200);
}

describe("a member's token is revoked, or its refresh refused", () => {
  it("revoked at the authorization server: the member sees Connect again, and no other member's token is used for them", async () => {
    const {
      members: [dave, erin],
      server,
    } = await teamAt(long, ["dave", "erin"]);
    await connect(dave, server, "dave-at-idp");
    await connect(erin, server, "erin-at-idp");
    expect(await whoami(dave, server)).toMatchObject({ text: "You are dave-at-idp" });
    expect(await whoami(erin, server)).toMatchObject({ text: "You are erin-at-idp" });
    const erinTokens = await stored(erin, server);

    await revokeAtServer(dave, server);
    await untilExpired(long, (await stored(dave, server))!.access_token);
    // The answer says to connect again, and nothing is answered as Erin.
    const refused = await whoami(dave, server);
    expect(refused.text).toBeUndefined();
    expect(asksToConnect(refused, server)).toBe(true);
    // The next answer leaves the server's tools out with the Connect notice; Settings and the picker agree.
    expect(await whoami(dave, server)).toEqual({
      notices: [{ code: "ConnectRequired", serverId: server.id, message: expect.stringMatching(/Connect again/) }],
    });
    expect(await seen(dave, server)).toEqual({ settings: "reconnect", pickerSaysConnect: true });
    expect(await stored(dave, server)).toBeUndefined();

    // Erin is untouched: same tokens, still connected, still herself.
    expect(await stored(erin, server)).toEqual(erinTokens);
    expect(await seen(erin, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
    expect(await whoami(erin, server)).toMatchObject({ text: "You are erin-at-idp" });

    // Connecting again brings Dave back as himself.
    await connect(dave, server, "dave-at-idp");
    expect(await whoami(dave, server)).toMatchObject({ text: "You are dave-at-idp" });
    expect(await seen(dave, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
  }, 90_000);

  it("a refresh the authorization server refuses (invalid_grant) leaves Connect again, without touching other members", async () => {
    const {
      members: [frank, gina],
      server,
    } = await teamAt(short, ["frank", "gina"]);
    await connect(frank, server, "frank-at-idp");
    await connect(gina, server, "gina-at-idp");
    const prisma = await db();
    const ginaRow = await prisma.mcpCredential.findFirstOrThrow({ where: { serverId: server.id, userId: gina.user.id } });

    expect(await short.revokeRefreshTokens("frank-at-idp")).toBeGreaterThan(0);
    await untilExpired(short, (await stored(frank, server))!.access_token);
    expect(asksToConnect(await whoami(frank, server), server)).toBe(true);
    expect(await seen(frank, server)).toEqual({ settings: "reconnect", pickerSaysConnect: true });
    expect((await whoami(frank, server)).notices).toEqual([expect.objectContaining({ code: "ConnectRequired", serverId: server.id })]);

    // Gina's credential row is still there, unchanged by Frank's failure, and works.
    expect(await prisma.mcpCredential.findFirstOrThrow({ where: { serverId: server.id, userId: gina.user.id } })).toMatchObject({
      secretEnc: ginaRow.secretEnc,
      needsReconnect: false,
    });
    expect(await whoami(gina, server)).toMatchObject({ text: "You are gina-at-idp" });
  }, 90_000);

  it("the authorization server down while a token expires: the call says so, nothing is lost, and the next call after it is back works", async () => {
    const {
      members: [hugo, ivy],
      server,
    } = await teamAt(short, ["hugo", "ivy"]);
    await connect(hugo, server, "hugo-at-idp");
    await connect(ivy, server, "ivy-at-idp");
    const before = (await stored(hugo, server))!;
    await untilExpired(short, before.access_token);
    await short.stopAuthorizationServer();
    try {
      const down = await whoami(hugo, server);
      expect(down.text).toBeUndefined();
      // Not the member's to fix: no "Connect again" (it would fail too), the tokens stay; the answer
      // says what is wrong.
      expect([down.code, ...down.notices.map((n) => n.code)]).not.toContain("ConnectRequired");
      expect(down.notices).toEqual([{ code: "ToolsUnavailable", message: expect.stringMatching(/authorization server could not be reached/) }]);
      expect(await seen(hugo, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
      expect((await stored(hugo, server))?.refresh_token).toBe(before.refresh_token);
      expect(await seen(ivy, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
    } finally {
      await short.startAuthorizationServer();
    }
    // Back: within the pool's short backoff after a failure, the member's next answers use the tool again.
    await expect.poll(async () => (await whoami(hugo, server)).text, { timeout: 15_000, interval: 250 }).toBe("You are hugo-at-idp");
    expect(await seen(hugo, server)).toEqual({ settings: "connected", pickerSaysConnect: false });
    expect(await whoami(ivy, server)).toMatchObject({ text: "You are ivy-at-idp" });
  }, 90_000);
});
