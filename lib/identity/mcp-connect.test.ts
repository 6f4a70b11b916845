// Members connect their own accounts at an OAuth MCP server: a real authorization server
// (oidc-provider: discovery, dynamic registration, PKCE, resource indicators, refresh, revocation)
// and a protected MCP server (the SDK's bearer-auth middleware) on loopback, the app's database.
// A tool call acts as the member who made it; an expired token is refreshed; a revoked one asks the
// member to connect again. Bad input ends in a clear refusal with nothing stored: a wrong issuer, a
// provider that is down, an unknown or replayed state, a PKCE mismatch, a token for another
// resource, another member's flow. Members see and remove only their own connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, makeUser, rejection, startTestApp } from "@/test/support/test-app";
import { loginHeadless, startMcpAuthStack, type McpAuthStack } from "@/test/support/mcp-auth-server";
import { freePort, TEST_REVISION } from "@/test/support/test-servers";
import { acquire, callTool, closeAll } from "../mcp/pool";
import { listConnections } from "./mcp-credentials";
import { disconnect, finishConnect, startConnect } from "./mcp-connect";
import { memberServerConfig } from "./mcp-member-config";
import { assembleTools } from "../tools/tool-set";

const APP = "http://127.0.0.1:3999";
const CALLBACK = `${APP}/api/mcp/oauth/callback`;

let stop: () => Promise<void>;
let stack: McpAuthStack;
beforeAll(async () => {
  process.env.PARLEY_ALLOW_PRIVATE_URLS = "1";
  ({ stop } = await startTestApp(DRIVERS[0]));
  stack = await startMcpAuthStack();
}, 300_000);
afterAll(async () => {
  await closeAll();
  await stack?.close();
  await stop?.();
});

async function teamWith(names: string[]): Promise<TeamContext[]> {
  const prisma = await db();
  const t = await prisma.team.create({ data: { name: `Team ${Date.now()}${Math.random()}` } });
  const out: TeamContext[] = [];
  for (const name of names) {
    const user = await makeUser(name);
    await prisma.membership.create({ data: { teamId: t.id, userId: user.id, role: "member" } });
    out.push({ user: { id: user.id, name: user.name, email: user.email }, team: { id: t.id, name: t.name, role: "member" }, teams: [] });
  }
  return out;
}

async function oauthServer(ctx: TeamContext, url: string, name = "Protected") {
  const prisma = await db();
  return prisma.mcpServer.create({ data: { teamId: ctx.team.id, name, transport: "http", url, authMode: "oauth", connectTimeoutMs: 10_000 } });
}

/** The member's whole Connect: start, log in at the provider as `account`, come back. */
async function connect(ctx: TeamContext, serverId: string, account: string) {
  const to = await startConnect(ctx, serverId, { appUrl: APP, returnTo: "/chat/x" });
  const back = await loginHeadless(to, account, CALLBACK);
  return { back, done: await finishConnect(ctx.user.id, back.searchParams.get("state"), callbackParams(back)) };
}

const callbackParams = (u: URL) => ({ code: u.searchParams.get("code"), iss: u.searchParams.get("iss"), error: u.searchParams.get("error") });

async function whoami(serverId: string, userId: string): Promise<string> {
  const prisma = await db();
  const row = await prisma.mcpServer.findUniqueOrThrow({ where: { id: serverId } });
  const { config } = await memberServerConfig(row, userId);
  const res = await callTool(config, "whoami", {}, { timeoutMs: 10_000 });
  // The member's session speaks this run's revision (vitest.config.mts runs the file on both).
  expect((await acquire(config, { ping: false })).protocolVersion).toBe(TEST_REVISION);
  return (res.content[0] as { text: string }).text;
}

async function credentialRows(serverId: string) {
  const prisma = await db();
  return prisma.mcpCredential.findMany({ where: { serverId } });
}

describe("per-member OAuth connections to an MCP server", () => {
  it("each member's tool calls carry their own identity; expiry is refreshed, revocation asks to connect again, disconnect revokes", async () => {
    const [alice, bob] = await teamWith(["alice", "bob"]);
    const server = await oauthServer(alice, stack.mcpUrl);
    const { done } = await connect(alice, server.id, "alice-at-idp");
    expect(done.returnTo).toBe("/chat/x");
    await connect(bob, server.id, "bob-at-idp");

    expect(await whoami(server.id, alice.user.id)).toBe("You are alice-at-idp");
    expect(await whoami(server.id, bob.user.id)).toBe("You are bob-at-idp");
    // Tokens are sealed at rest: the database row holds no token in the clear.
    const rows = await credentialRows(server.id);
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r.secretEnc).not.toMatch(/access_token|refresh_token/);

    // Expired at the authorization server: the next call refreshes and goes through.
    expect(await stack.expireAccessTokens("alice-at-idp")).toBeGreaterThan(0);
    expect(await whoami(server.id, alice.user.id)).toBe("You are alice-at-idp");

    // Revoked: the next turn leaves the server's tools out with a Connect notice, and Settings says
    // to connect again.
    await stack.revokeAccount("bob-at-idp");
    await expect(whoami(server.id, bob.user.id)).rejects.toMatchObject({ kind: "auth" });
    const prisma = await db();
    const tools = await prisma.mcpTool.findMany({ where: { serverId: server.id } });
    const turn = await assembleTools({ teamId: bob.team.id, userId: bob.user.id, selection: { servers: [server.id], tools: tools.map((t) => t.id) } });
    expect(Object.keys(turn.tools)).toEqual([]);
    expect(turn.notices).toEqual([expect.objectContaining({ code: "ConnectRequired", serverId: server.id })]);
    const views = await listConnections(bob.team.id, bob.user.id);
    expect(views.find((v) => v.serverId === server.id)?.state).toBe("reconnect");

    // Disconnect: revoked at the authorization server, gone here, and calls need a connection.
    const before = stack.revocations();
    await expect(disconnect(alice, server.id)).resolves.toEqual({ revoked: true });
    expect(stack.revocations()).toBeGreaterThan(before);
    await expect(memberServerConfig(server, alice.user.id)).rejects.toThrow(/Connect/);
    expect((await listConnections(alice.team.id, alice.user.id)).find((v) => v.serverId === server.id)?.state).toBe("none");
  }, 90_000);

  it("refuses a replayed callback, an unknown state, another member's flow and a PKCE mismatch, storing nothing", async () => {
    const [carol, dave] = await teamWith(["carol", "dave"]);
    const server = await oauthServer(carol, stack.mcpUrl);
    const { back } = await connect(carol, server.id, "carol-at-idp");
    // Replayed: the state was taken once.
    const replay = await rejection(finishConnect(carol.user.id, back.searchParams.get("state"), callbackParams(back)));
    expect(replay.status).toBe(400);
    expect(replay.message).toMatch(/already been used/);
    // A state nobody issued.
    expect((await rejection(finishConnect(carol.user.id, "forged-state", { code: "x" }))).message).toMatch(/not valid/);

    // Dave's flow finished by Carol's session: refused, and Dave's flow is not consumed by it.
    const daveTo = await startConnect(dave, server.id, { appUrl: APP });
    const daveBack = await loginHeadless(daveTo, "dave-at-idp", CALLBACK);
    expect((await rejection(finishConnect(carol.user.id, daveBack.searchParams.get("state"), callbackParams(daveBack)))).status).toBe(400);
    await finishConnect(dave.user.id, daveBack.searchParams.get("state"), callbackParams(daveBack));
    expect(await whoami(server.id, dave.user.id)).toBe("You are dave-at-idp");

    // PKCE mismatch: a code from one flow returned with the state (and verifier) of a newer one.
    const [erin] = await teamWith(["erin"]);
    const erinServer = await oauthServer(erin, stack.mcpUrl);
    const first = await loginHeadless(await startConnect(erin, erinServer.id, { appUrl: APP }), "erin-at-idp", CALLBACK);
    const second = await startConnect(erin, erinServer.id, { appUrl: APP });
    const mismatch = await rejection(finishConnect(erin.user.id, second.searchParams.get("state"), callbackParams(first)));
    expect(mismatch.message).toMatch(/failed/);
    const [row] = await credentialRows(erinServer.id);
    expect(row.secretEnc).toBeNull();
    expect(row.connectedAt).toBeNull();

    // Members see and remove only their own connections.
    expect((await rejection(disconnect(erin, server.id))).status).toBe(404);
    expect((await listConnections(dave.team.id, dave.user.id)).find((v) => v.serverId === server.id)?.state).toBe("connected");
  }, 90_000);

  it("refuses a wrong issuer, a provider that is down and a token for another resource, storing nothing", async () => {
    const [frank] = await teamWith(["frank"]);

    // The resource metadata names "localhost", the provider's metadata says "127.0.0.1".
    const asPort = Number(new URL(stack.issuer).port);
    const liar = await startMcpAuthStack({ advertisedIssuer: `http://localhost:${asPort}` });
    const wrongIssuer = await oauthServer(frank, liar.mcpUrl, "Wrong issuer");
    const issuerErr = await rejection(startConnect(frank, wrongIssuer.id, { appUrl: APP }));
    expect(issuerErr.status).toBe(400);
    expect(issuerErr.message).toMatch(/issuer/);
    await liar.close();

    // The authorization server is down (nothing listens where the metadata points).
    const down = await startMcpAuthStack({ advertisedIssuer: `http://127.0.0.1:${await freePort()}` });
    const downServer = await oauthServer(frank, down.mcpUrl, "Down");
    expect((await rejection(startConnect(frank, downServer.id, { appUrl: APP }))).message).toMatch(/cannot be reached|fetch failed|discover/i);
    await down.close();

    // A token issued for another resource: the MCP server refuses it, so it is not kept.
    const other = await startMcpAuthStack({ tokenAudience: "https://elsewhere.example/mcp" });
    const otherServer = await oauthServer(frank, other.mcpUrl, "Other audience");
    const to = await startConnect(frank, otherServer.id, { appUrl: APP });
    const back = await loginHeadless(to, "frank-at-idp", CALLBACK);
    const refused = await rejection(finishConnect(frank.user.id, back.searchParams.get("state"), callbackParams(back)));
    expect(refused.message).toMatch(/refused the token/);
    await other.close();

    for (const s of [wrongIssuer, downServer, otherServer]) {
      for (const r of await credentialRows(s.id)) expect(r.secretEnc).toBeNull();
    }
  }, 90_000);
});
