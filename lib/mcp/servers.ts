// The team's MCP servers as they are read: the view every member gets (without secrets), the admins'
// (secrets only as names and masks), a row of the caller's team (another team's server is 404,
// whoever asks), and a row as the decrypted config the pool connects with. Headers, token and
// environment are secrets under the rules of lib/security/stored-secrets.ts (bound to the URL's
// origin). Admins change servers in server-admin.ts.
import { db } from "../db/client";
import type { McpServer, McpTool } from "../db/generated/client";
import { NotFound } from "../errors";
import { openJsonSecretFor, readJsonSecret, STDIO_TARGET } from "../security/stored-secrets";
import type { TeamContext } from "../teams/team-context";
import { type McpServerConfig } from "./config";
import { status, type McpStatus } from "./pool";

/** The headers and bearer token of an HTTP server, sealed together in `headersEnc`. */
export type HeaderSecrets = { headers?: Record<string, string>; bearerToken?: string };

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
  /** Rules on arguments as stored (lib/approvals/approval-rules.ts reads them). */
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
