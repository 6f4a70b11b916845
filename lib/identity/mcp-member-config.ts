// The settings a tool call of one member reaches an MCP server with: the shared ones for a shared
// server; the member's own key, or their own OAuth tokens (through the SDK's provider, in the
// background mode that never asks anyone to log in) otherwise, with a pool session of their own.
// A member without a usable credential gets ConnectRequired: the turn shows the Connect notice.
import type { McpServer } from "../db/generated/client";
import { db } from "../db/client";
import type { McpServerConfig } from "../mcp/config";
import { ConnectRequired, StoredOAuthProvider, type OAuthClientSettings } from "../mcp/oauth-provider";
import { serverConfig } from "../mcp/servers";
import { outboundFetch } from "../security/outbound-fetch";
import { publicUrl } from "../config";
import { credentialStore, openCredential, openKey, serverOAuthClients, type OAuthSecret } from "./mcp-credentials";

/** Which credential a call used, for its audit event. */
export type CredentialUsed = "shared" | "member-oauth" | "member-key";

export const CALLBACK_PATH = "/api/mcp/oauth/callback";
export const CLIENT_METADATA_PATH = "/api/mcp/oauth/client-metadata.json";

/** Parley as an OAuth client of the server: callback and CIMD at `appUrl` (the public URL when set). */
export function oauthClientSettings(server: Pick<McpServer, "url" | "oauthClientEnc" | "oauthScopes">, appUrl?: string): OAuthClientSettings {
  const base = (publicUrl() ?? appUrl ?? "http://localhost:3000").replace(/\/+$/, "");
  return {
    redirectUrl: `${base}${CALLBACK_PATH}`,
    clientMetadataUrl: `${base}${CLIENT_METADATA_PATH}`,
    clientName: "Parley",
    clientUri: base,
    scope: server.oauthScopes || undefined,
    preRegistered: serverOAuthClients(server),
  };
}

const connectMessage = (server: Pick<McpServer, "name">, again: boolean) =>
  again
    ? `Your connection to "${server.name}" has expired or was revoked. Connect again to use its tools.`
    : `Connect your account to use the tools of "${server.name}".`;

/** The settings for `userId`'s calls to `server`, or ConnectRequired. */
export async function memberServerConfig(server: McpServer, userId: string): Promise<{ config: McpServerConfig; credential: CredentialUsed }> {
  const shared = serverConfig(server);
  if (server.authMode === "shared") return { config: shared, credential: "shared" };
  const prisma = await db();
  const row = await prisma.mcpCredential.findUnique({ where: { serverId_userId: { serverId: server.id, userId } } });
  const poolKey = `${server.id}:${userId}`;
  // Nothing of the shared token goes along: the member's own credential replaces it.
  const { Authorization: _dropped, ...headers } = shared.headers ?? {};
  void _dropped;
  if (server.authMode === "member_key") {
    const key = row && !row.needsReconnect ? openKey(row, server) : undefined;
    if (!key) throw new ConnectRequired(connectMessage(server, Boolean(row?.needsReconnect)));
    const name = server.memberHeader || "Authorization";
    return { config: { ...shared, poolKey, headers: { ...headers, [name]: name === "Authorization" ? `Bearer ${key}` : key } }, credential: "member-key" };
  }
  const secret = row && !row.needsReconnect ? openCredential<OAuthSecret>(row, server) : undefined;
  if (!secret?.tokens) throw new ConnectRequired(connectMessage(server, Boolean(row?.connectedAt)), row?.scope ?? undefined);
  const provider = new StoredOAuthProvider(credentialStore(server, userId), oauthClientSettings(server), "background", {
    serverUrl: server.url!,
    fetchFn: outboundFetch(),
  });
  return { config: { ...shared, poolKey, headers, authProvider: provider }, credential: "member-oauth" };
}
