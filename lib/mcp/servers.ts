// The team's MCP servers: create, edit, enable/disable, delete (admins; each change audited without
// secrets), read (every member, without secrets), and turn a row into the decrypted config the pool
// connects with. Another team's server is 404, whoever asks. Headers, token and environment are
// write-only secrets under the rules of lib/security/stored-secrets.ts (bound to the URL's origin).
import { audited } from "../audit";
import { db } from "../db/client";
import type { McpServer, McpTool, Prisma } from "../db/generated/client";
import { Conflict, NotFound } from "../errors";
import { openJsonSecretFor, readJsonSecret, sealJsonSecret, secretMoved, STDIO_TARGET, writeOnly } from "../security/stored-secrets";
import type { TeamContext } from "../teams/team-context";
import { type McpServerConfig } from "./config";
import { evict, status, type McpStatus } from "./pool";
import { parseArgLines, parseEnvLines, parseHeaderLines, type McpServerFormInput } from "./server-schema";
import { teamToolRow } from "./tool-rows";

type HeaderSecrets = { headers?: Record<string, string>; bearerToken?: string };

export type McpToolView = {
  id: string;
  name: string;
  title: string | null;
  description: string | null;
  inputSchema: unknown;
  annotations: Record<string, unknown> | null;
  enabled: boolean;
  /** The admin's per-tool policy; null: the server default, else what the annotations suggest. */
  policy: "ask" | "auto" | "deny" | "admin" | null;
  /** Rules on arguments as stored (lib/tools/approval-rules.ts reads them). */
  rules: unknown;
  /** Minutes a call waits for a decision; null: the server's limit. */
  decisionTimeoutMin: number | null;
  lastSeenAt: string;
};

export type McpServerView = {
  id: string;
  name: string;
  transport: "http" | "sse" | "stdio";
  enabled: boolean;
  status: McpStatus;
  tools: McpToolView[];
};

/** What admins see: settings, and secrets only as names and masks. */
export type McpServerAdminView = McpServerView & {
  url: string | null;
  command: string | null;
  args: string[];
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** The approval policy of the server's tools that have none of their own; null: the built-in rules. */
  defaultPolicy: McpServer["defaultPolicy"];
  /** New chats of members without a tool choice of their own use this server's tools. */
  onByDefault: boolean;
  /** Tools the server marks read-only run without asking (the admin's opt-in; hints are not trusted otherwise). */
  trustReadOnly: boolean;
  /** Minutes a call of this server's tools waits for a decision; null: no limit. */
  decisionTimeoutMin: number | null;
  secrets: { headerNames: string[]; bearerHint?: string; envNames: string[]; unreadable?: boolean };
  /** How members authenticate: shared, OAuth per member, a key per member. */
  authMode: McpServer["authMode"];
  memberHeader: string | null;
  oauthScopes: string | null;
  /** The OAuth client in use (pre-registered or registered by a member's first connect): its id only. */
  oauthClientId?: string;
};

/** The decrypted settings the pool connects with (in memory only); secrets open for their own origin only. */
export function serverConfig(row: McpServer): McpServerConfig {
  const stdio = row.transport === "stdio";
  const secrets = (!stdio && row.url ? openJsonSecretFor<HeaderSecrets>(row.headersEnc, row.url, row.url, "The stored headers") : undefined) ?? {};
  const headers: Record<string, string> = { ...(secrets.headers ?? {}) };
  if (secrets.bearerToken) headers.Authorization = `Bearer ${secrets.bearerToken}`;
  return {
    id: row.id,
    name: row.name,
    transport: row.transport,
    url: row.url,
    headers,
    command: row.command,
    args: Array.isArray(row.args) ? (row.args as string[]) : [],
    env: (stdio ? openJsonSecretFor<Record<string, string>>(row.envEnc, STDIO_TARGET) : undefined) ?? {},
    connectTimeoutMs: row.connectTimeoutMs,
    callTimeoutMs: row.callTimeoutMs,
  };
}

function toolView(t: McpTool): McpToolView {
  return {
    id: t.id,
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: (t.annotations as Record<string, unknown> | null) ?? null,
    enabled: t.enabled,
    policy: t.policy,
    rules: t.rules ?? null,
    decisionTimeoutMin: t.decisionTimeoutMin,
    lastSeenAt: t.lastSeenAt.toISOString(),
  };
}

function memberView(row: McpServer & { tools: McpTool[] }): McpServerView {
  return { id: row.id, name: row.name, transport: row.transport, enabled: row.enabled, status: status(row.id, row.enabled), tools: row.tools.map(toolView) };
}

function adminView(row: McpServer & { tools: McpTool[] }): McpServerAdminView {
  let secrets: McpServerAdminView["secrets"] = { headerNames: [], envNames: [] };
  try {
    const h = readJsonSecret<HeaderSecrets>(row.headersEnc) ?? {};
    const env = readJsonSecret<Record<string, string>>(row.envEnc) ?? {};
    secrets = {
      headerNames: Object.keys(h.headers ?? {}),
      bearerHint: h.bearerToken ? `••••${h.bearerToken.slice(-4)}` : undefined,
      envNames: Object.keys(env),
    };
  } catch {
    secrets = { headerNames: [], envNames: [], unreadable: true };
  }
  return {
    ...memberView(row),
    url: row.url,
    command: row.command,
    args: Array.isArray(row.args) ? (row.args as string[]) : [],
    connectTimeoutMs: row.connectTimeoutMs,
    callTimeoutMs: row.callTimeoutMs,
    defaultPolicy: row.defaultPolicy,
    onByDefault: row.onByDefault,
    trustReadOnly: row.trustReadOnly,
    decisionTimeoutMin: row.decisionTimeoutMin,
    secrets,
    authMode: row.authMode,
    memberHeader: row.memberHeader,
    oauthScopes: row.oauthScopes,
    oauthClientId: oauthClientOf(row)?.client_id,
  };
}

type OAuthClient = { client_id: string; client_secret?: string; issuer?: string };

/** The admin's pre-registered client (unstamped), not the ones members' sign-ins registered per issuer. */
function oauthClientOf(row: McpServer): OAuthClient | undefined {
  try {
    const value = readJsonSecret<OAuthClient | { clients: OAuthClient[] }>(row.oauthClientEnc);
    return value && "clients" in value ? value.clients.find((c) => !c.issuer) : value;
  } catch {
    return undefined;
  }
}

const withTools = { tools: { orderBy: { name: "asc" as const } } };

export async function listServers(teamId: string): Promise<McpServerView[]> {
  const prisma = await db();
  const rows = await prisma.mcpServer.findMany({ where: { teamId }, include: withTools, orderBy: { name: "asc" } });
  return rows.map(memberView);
}

export async function listServersForAdmin(ctx: TeamContext): Promise<McpServerAdminView[]> {
  const prisma = await db();
  const rows = await prisma.mcpServer.findMany({ where: { teamId: ctx.team.id }, include: withTools, orderBy: { name: "asc" } });
  return rows.map(adminView);
}

const noSuchServer = () => NotFound("No such MCP server.");

/** A server row of the caller's team; 404 for anything else. */
export async function serverRow(teamId: string, serverId: string): Promise<McpServer> {
  const prisma = await db();
  const row = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId } });
  if (!row) throw noSuchServer();
  return row;
}

/** serverRow with the server's tools, for the views. */
async function serverWithTools(teamId: string, serverId: string) {
  const prisma = await db();
  const row = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId }, include: withTools });
  if (!row) throw noSuchServer();
  return row;
}

export async function getServer(ctx: TeamContext, serverId: string): Promise<McpServerView> {
  return memberView(await serverWithTools(ctx.team.id, serverId));
}

export async function getServerForAdmin(ctx: TeamContext, serverId: string): Promise<McpServerAdminView> {
  return adminView(await serverWithTools(ctx.team.id, serverId));
}

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

function columns(input: McpServerFormInput, existing?: McpServer): Prisma.McpServerUncheckedUpdateInput {
  const stdio = input.transport === "stdio";
  const out: Prisma.McpServerUncheckedUpdateInput = {
    name: input.name,
    transport: input.transport,
    url: stdio ? null : input.url,
    command: stdio ? input.command : null,
    args: stdio ? parseArgLines(input.args) : [],
    enabled: input.enabled,
    connectTimeoutMs: Math.round(input.connectTimeoutSec * 1000),
    callTimeoutMs: Math.round(input.callTimeoutSec * 1000),
    authMode: stdio ? "shared" : input.authMode,
    memberHeader: input.memberHeader || null,
    oauthScopes: input.oauthScopes || null,
  };
  // The OAuth client: a new id replaces (with its secret), "clear" or another origin removes it
  // (a client registered at one authorization server is of no use at another), empty keeps it.
  if (stdio || input.clearSecrets || secretMoved(existing?.oauthClientEnc, existing?.url, input.url)) out.oauthClientEnc = null;
  if (!stdio && input.oauthClientId) {
    out.oauthClientEnc = sealJsonSecret(
      { client_id: input.oauthClientId, ...(input.oauthClientSecret ? { client_secret: input.oauthClientSecret } : {}) },
      input.url,
    );
  }
  // Write-only secrets: a new value replaces, "clear" removes, empty keeps what is stored (for the
  // same origin only: a URL on another server needs them entered again).
  const entered = Boolean(input.headers || input.bearerToken || input.env.trim());
  const reseal = !existing || input.clearSecrets || entered;
  if (stdio) {
    out.headersEnc = null;
    const stored = existing?.envEnc ?? undefined;
    const kept = writeOnly("env", input.env.trim() ? sealJsonSecret(parseEnvLines(input.env).env, STDIO_TARGET) : undefined, {
      clear: input.clearSecrets,
      stored,
      moved: secretMoved(stored, existing?.transport === "stdio" ? STDIO_TARGET : existing?.url, STDIO_TARGET),
    });
    out.envEnc = kept ?? null;
  } else {
    out.envEnc = null;
    const stored = readJsonSecret<HeaderSecrets>(existing?.headersEnc) ?? {};
    const moved = secretMoved(existing?.headersEnc, existing?.url, input.url);
    const next: HeaderSecrets = {
      headers: writeOnly("headers", input.headers ? parseHeaderLines(input.headers).headers : undefined, {
        clear: input.clearSecrets,
        stored: stored.headers,
        moved,
      }),
      bearerToken: writeOnly("bearerToken", input.bearerToken || undefined, { clear: input.clearSecrets, stored: stored.bearerToken, moved }),
    };
    const any = Boolean(next.bearerToken || Object.keys(next.headers ?? {}).length);
    // Unchanged secrets keep their ciphertext, so the audit log does not report a change.
    out.headersEnc = !any ? null : reseal ? sealJsonSecret(next, input.url) : existing!.headersEnc;
  }
  return out;
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
      (tx) => tx.mcpServer.create({ data: { ...(columns(input) as Prisma.McpServerUncheckedCreateInput), teamId: ctx.team.id } }),
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
      (tx) => tx.mcpServer.update({ where: { id: serverId }, data: columns(input, before) }),
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
