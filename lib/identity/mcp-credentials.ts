// Members' own credentials for MCP servers (McpCredential rows): OAuth tokens or a pasted key, sealed
// for the server's origin (lib/security/stored-secrets.ts) and never sent to the browser. This module
// reads and writes the rows: the OAuth store the SDK's provider works on (lib/mcp/oauth-provider.ts),
// a member's view of their connections, saving a key, marking a credential refused, and the
// server-wide OAuth clients (pre-registered by an admin, or registered dynamically by the first member
// who signed in at each authorization server: one per issuer).
import type { StoredOAuthClientInformation } from "@modelcontextprotocol/client";
import { db } from "../db/client";
import type { McpCredential, McpServer } from "../db/generated/client";
import type { OAuthRecord, OAuthStore } from "../mcp/oauth-provider";
import { openJsonSecretFor, sealJsonSecret } from "../security/stored-secrets";

export type OAuthSecret = Omit<OAuthRecord, "codeVerifier">;
type KeySecret = { key: string };

/** What a member sees of one server they may connect to: never a token. */
export type ConnectionView = {
  serverId: string;
  serverName: string;
  mode: "oauth" | "member_key";
  state: "connected" | "reconnect" | "none";
  connectedAt?: string;
  scope?: string;
  /** Key servers: the last four characters of the key, masked. */
  keyHint?: string;
};

/** The sealed secret of a credential, opened for the server's URL only. */
export function openCredential<T>(row: Pick<McpCredential, "secretEnc">, server: Pick<McpServer, "url">): T | undefined {
  if (!row.secretEnc || !server.url) return undefined;
  try {
    return openJsonSecretFor<T>(row.secretEnc, server.url, server.url, "Your stored credential");
  } catch {
    // Saved for another address (the server moved) or another key: as good as none.
    return undefined;
  }
}

/** What McpServer.oauthClientEnc holds: an admin's client (the old shape, unstamped), or one per issuer. */
type ServerClients = StoredOAuthClientInformation | { clients: StoredOAuthClientInformation[] };

const clientList = (value: ServerClients | undefined): StoredOAuthClientInformation[] => (!value ? [] : "clients" in value ? value.clients : [value]);

/** The server-wide OAuth clients: an admin's, or those members' flows registered (stamped with their issuer). */
export function serverOAuthClients(server: Pick<McpServer, "url" | "oauthClientEnc">): StoredOAuthClientInformation[] {
  if (!server.oauthClientEnc || !server.url) return [];
  try {
    return clientList(openJsonSecretFor<ServerClients>(server.oauthClientEnc, server.url, server.url, "The server's OAuth client"));
  } catch {
    return [];
  }
}

/** Keeps a dynamically registered client for the next members, unless one for its issuer is kept already. */
export async function rememberServerClient(server: Pick<McpServer, "id" | "url" | "oauthClientEnc">, client: StoredOAuthClientInformation): Promise<void> {
  if (!server.url || !client.issuer) return;
  const known = serverOAuthClients(server);
  if (known.some((c) => c.issuer === client.issuer)) return;
  const prisma = await db();
  // Only over what was read: of two members registering at once, the first one's client is kept.
  await prisma.mcpServer.updateMany({
    where: { id: server.id, oauthClientEnc: server.oauthClientEnc },
    data: { oauthClientEnc: sealJsonSecret({ clients: [...known, client] } satisfies ServerClients, server.url) },
  });
}

/**
 * The OAuth store of one member at one server, on their credential row: what the SDK's provider
 * reads and writes while tool calls run (tokens refreshed, or dropped when refused). Read on every
 * use, so processes that share the database see each other's refreshes.
 */
export function credentialStore(server: Pick<McpServer, "id" | "url">, userId: string): OAuthStore {
  const where = { serverId_userId: { serverId: server.id, userId } };
  const read = async (): Promise<OAuthSecret> => {
    const prisma = await db();
    const row = await prisma.mcpCredential.findUnique({ where });
    return (row && openCredential<OAuthSecret>(row, server)) ?? {};
  };
  return {
    // Refreshes of one member at one server never overlap in this process (oauth-provider.ts).
    key: `${server.id}:${userId}`,
    read,
    async write(patch) {
      if (!server.url) return;
      const { codeVerifier: _unused, ...rest } = patch;
      void _unused;
      const next: OAuthSecret = { ...(await read()), ...rest };
      const prisma = await db();
      const dropped = "tokens" in patch && !patch.tokens;
      await prisma.mcpCredential.updateMany({
        where: { serverId: server.id, userId },
        data: {
          secretEnc: sealJsonSecret(next, server.url),
          expiresAt: next.tokens?.expiresAt ? new Date(next.tokens.expiresAt) : null,
          ...(dropped ? { needsReconnect: true } : {}),
        },
      });
    },
  };
}

/** The server refused this member's credential (revoked, expired without refresh, a step-up). */
export async function markNeedsReconnect(serverId: string, userId: string, scope?: string): Promise<void> {
  const prisma = await db();
  await prisma.mcpCredential.updateMany({ where: { serverId, userId }, data: { needsReconnect: true, ...(scope ? { scope } : {}) } });
}

/** A member's state at each server of their team that takes members' own credentials. */
export async function listConnections(teamId: string, userId: string): Promise<ConnectionView[]> {
  const prisma = await db();
  const servers = await prisma.mcpServer.findMany({
    where: { teamId, enabled: true, authMode: { not: "shared" } },
    include: { credentials: { where: { userId } } },
    orderBy: { name: "asc" },
  });
  return servers.map((s) => {
    const row = s.credentials[0];
    const view: ConnectionView = { serverId: s.id, serverName: s.name, mode: s.authMode === "oauth" ? "oauth" : "member_key", state: "none" };
    if (!row?.connectedAt) return view;
    const secret = openCredential<OAuthSecret & KeySecret>(row, s);
    const usable = s.authMode === "oauth" ? Boolean(secret?.tokens) : Boolean(secret?.key);
    view.state = usable && !row.needsReconnect ? "connected" : usable || row.needsReconnect ? "reconnect" : "none";
    view.connectedAt = row.connectedAt.toISOString();
    view.scope = row.scope ?? undefined;
    if (secret?.key) view.keyHint = `••••${secret.key.slice(-4)}`;
    return view;
  });
}

/** The server ids of the team whose tools this member cannot use until they connect. */
export async function serversNeedingConnect(teamId: string, userId: string): Promise<Set<string>> {
  return new Set((await listConnections(teamId, userId)).filter((c) => c.state !== "connected").map((c) => c.serverId));
}

export function sealKey(server: Pick<McpServer, "url">, key: string): string {
  return sealJsonSecret({ key } satisfies KeySecret, server.url!);
}

export function openKey(row: Pick<McpCredential, "secretEnc">, server: Pick<McpServer, "url">): string | undefined {
  return openCredential<KeySecret>(row, server)?.key;
}
