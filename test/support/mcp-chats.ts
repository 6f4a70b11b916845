// Test helpers for chats whose tools come from our test MCP server (test/support/test-servers.ts): the
// whole stack a file of such tests needs (a test app, the scripted upstream, the MCP server, started
// before the file's tests and stopped after), a chat with all of the server's tools selected, and a
// member's chat with its echo tool under a given approval policy. Not imported by the app.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll } from "vitest";
import { db } from "@/lib/db/client";
import type { ProviderKind } from "@/lib/db/generated/client";
import { closeAll } from "@/lib/mcp/pool";
import { probeServer } from "@/lib/mcp/probe";
import type { TeamContext } from "@/lib/teams/team-context";
import { DRIVERS, makeUser, startTestApp } from "./test-app";
import { startTestServer, type RunningServer } from "./test-servers";
import { startUpstream, teamWithProvider } from "./test-turns";

/** The upstream and the MCP server of a test file, there once its `beforeAll` has run. */
export type McpChatStack = { mock: LLMock; server: RunningServer };

/** Starts a test app on PGlite, the scripted upstream and the test MCP server for this file's tests. */
export function mcpChatStack(): McpChatStack {
  const stack = {} as McpChatStack;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(DRIVERS[0]));
    [stack.mock, stack.server] = await Promise.all([startUpstream(), startTestServer()]);
  }, 180_000);
  afterAll(async () => {
    await closeAll();
    await Promise.all([stack.mock?.stop(), stack.server?.stop()]);
    await stop?.();
  });
  return stack;
}

type ServerOptions = { policy?: "auto" | "ask"; callTimeoutMs?: number; kind?: ProviderKind; vision?: boolean };

/** A team with a provider on the upstream and a chat of its admin with every tool of the MCP server selected. */
export async function chatWithServerTools({ mock, server }: McpChatStack, options: ServerOptions = {}) {
  const setup = await teamWithProvider(mock.url, options.kind ?? "openai_chat");
  const prisma = await db();
  if (options.vision) await prisma.model.update({ where: { id: setup.model.id }, data: { vision: true } });
  const row = await prisma.mcpServer.create({
    data: {
      teamId: setup.ctx.team.id,
      name: "t",
      transport: "http",
      url: server.url,
      defaultPolicy: options.policy ?? "auto",
      ...(options.callTimeoutMs ? { callTimeoutMs: options.callTimeoutMs } : {}),
    },
  });
  await probeServer(setup.ctx, row.id);
  const tools = await prisma.mcpTool.findMany({ where: { serverId: row.id } });
  const selection = { servers: [row.id], tools: tools.map((t) => t.id) };
  await prisma.chat.update({ where: { id: setup.chat.id }, data: { toolSelection: selection } });
  return { ...setup, serverId: row.id, selection };
}

type EchoPolicy = { policy?: "admin" | "ask" | "auto"; rules?: unknown; decisionTimeoutMin?: number; title?: string };

/**
 * A team (its admin from teamWithProvider) with a member whose chat offers only the MCP server's echo
 * tool, set to `policy`: the ground of the approval tests (an admin decides what a member's call waits for).
 */
export async function memberChatWithEcho(upstreamUrl: string, serverUrl: string, options: EchoPolicy = {}) {
  const setup = await teamWithProvider(upstreamUrl, "openai_chat");
  const prisma = await db();
  const user = await makeUser("Maria Member");
  await prisma.membership.create({ data: { teamId: setup.ctx.team.id, userId: user.id, role: "member" } });
  const team = { ...setup.ctx.team, role: "member" as const };
  const member: TeamContext = { user: { id: user.id, name: user.name, email: user.email }, team, teams: [team] };
  const mcp = await prisma.mcpServer.create({ data: { teamId: setup.ctx.team.id, name: "Test", transport: "http", url: serverUrl } });
  await probeServer(setup.ctx, mcp.id);
  const echo = await prisma.mcpTool.update({
    where: { serverId_name: { serverId: mcp.id, name: "echo" } },
    data: { policy: options.policy ?? null, rules: (options.rules as object) ?? undefined, decisionTimeoutMin: options.decisionTimeoutMin ?? null },
  });
  const chat = await prisma.chat.create({
    data: {
      teamId: setup.ctx.team.id,
      userId: member.user.id,
      ...(options.title ? { title: options.title } : {}),
      toolSelection: { servers: [mcp.id], tools: [echo.id] },
    },
  });
  return { admin: setup.ctx, member, chat, echo, serverId: mcp.id };
}
