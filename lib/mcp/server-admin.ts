// Admins' changes to the team's MCP servers and their tools: create, edit, enable/disable, delete,
// each audited without secrets (a URL without user info or query values; the names of the fields an
// edit changed). A server's name is unique in its team, whatever its case (409). An edited, disabled
// or deleted server's connections are closed (pool.ts). Another team's server or tool is 404.
import { audited } from "../audit";
import { db } from "../db/client";
import type { McpServer, Prisma } from "../db/generated/client";
import { Conflict } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { evict } from "./pool";
import { serverColumns } from "./server-columns";
import type { McpServerFormInput } from "./server-schema";
import { serverRow } from "./servers";
import { teamToolRow } from "./tool-rows";

/** A URL for the audit log: no user info, no query values (they may hold tokens). */
function auditUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
  } catch {
    return undefined;
  }
}

function changedFields(before: McpServer, after: McpServer): string[] {
  const keys = [
    "name",
    "transport",
    "url",
    "command",
    "args",
    "envEnc",
    "headersEnc",
    "enabled",
    "connectTimeoutMs",
    "callTimeoutMs",
    "authMode",
    "memberHeader",
    "oauthScopes",
    "oauthClientEnc",
  ] as const;
  const shown: Partial<Record<(typeof keys)[number], string>> = { envEnc: "env", headersEnc: "headers", oauthClientEnc: "oauthClient" };
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => shown[k] ?? k);
}

const duplicate = () => Conflict("A server with this name already exists in this team.", { name: "A server with this name already exists in this team." });

async function nameTaken(teamId: string, name: string, exceptId?: string): Promise<boolean> {
  const prisma = await db();
  const rows = await prisma.mcpServer.findMany({ where: { teamId, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { name: true } });
  return rows.some((r) => r.name.toLowerCase() === name.toLowerCase());
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === "P2002";

export async function createServer(ctx: TeamContext, input: McpServerFormInput): Promise<{ id: string }> {
  if (await nameTaken(ctx.team.id, input.name)) throw duplicate();
  try {
    const row = await audited(
      ctx,
      (tx) => tx.mcpServer.create({ data: { ...(serverColumns(input) as Prisma.McpServerUncheckedCreateInput), teamId: ctx.team.id } }),
      (row) => ({
        action: "mcp.server.create",
        targetType: "mcp-server",
        targetId: row.id,
        data: { name: row.name, transport: row.transport, url: auditUrl(row.url), command: row.command, enabled: row.enabled, authMode: row.authMode },
      }),
    );
    return { id: row.id };
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

export async function updateServer(ctx: TeamContext, serverId: string, input: McpServerFormInput): Promise<void> {
  const before = await serverRow(ctx.team.id, serverId);
  if (await nameTaken(ctx.team.id, input.name, serverId)) throw duplicate();
  try {
    await audited(
      ctx,
      (tx) => tx.mcpServer.update({ where: { id: serverId }, data: serverColumns(input, before) }),
      (after) => ({
        action: "mcp.server.update",
        targetType: "mcp-server",
        targetId: serverId,
        data: { name: after.name, changed: changedFields(before, after), url: auditUrl(after.url) },
      }),
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
  await evict(serverId);
}

export async function setServerEnabled(ctx: TeamContext, serverId: string, enabled: boolean): Promise<void> {
  const row = await serverRow(ctx.team.id, serverId);
  await audited(ctx, (tx) => tx.mcpServer.update({ where: { id: serverId }, data: { enabled } }), {
    action: enabled ? "mcp.server.enable" : "mcp.server.disable",
    targetType: "mcp-server",
    targetId: serverId,
    data: { name: row.name },
  });
  if (!enabled) await evict(serverId);
}

export async function deleteServer(ctx: TeamContext, serverId: string): Promise<void> {
  const row = await serverRow(ctx.team.id, serverId);
  await audited(ctx, (tx) => tx.mcpServer.delete({ where: { id: serverId } }), {
    action: "mcp.server.delete",
    targetType: "mcp-server",
    targetId: serverId,
    data: { name: row.name, transport: row.transport },
  });
  await evict(serverId);
}

export async function setToolEnabled(ctx: TeamContext, toolId: string, enabled: boolean): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId);
  await audited(ctx, (tx) => tx.mcpTool.update({ where: { id: toolId }, data: { enabled } }), {
    action: enabled ? "mcp.tool.enable" : "mcp.tool.disable",
    targetType: "mcp-tool",
    targetId: toolId,
    data: { server: tool.server.name, tool: tool.name },
  });
}
