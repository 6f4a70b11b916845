// A member connects their account at an OAuth MCP server, and disconnects it. Start: the flow begins
// (lib/mcp/oauth-flow.ts) in a store of its own, so a working connection keeps working until the new
// one is made; the state (hashed), PKCE verifier and discovery wait sealed on the member's row for
// ten minutes. Callback: the state is taken once (a replay finds nothing), must belong to the member
// whose session returns, the code is exchanged, and the new tokens are tried against the server
// before they are stored: a wrong issuer, a provider that is down, a state or PKCE mismatch or a token
// the server refuses (one for another resource) ends with a clear error and nothing stored.
// Disconnect revokes the tokens at the authorization server and deletes the row. Each is audited.
import crypto from "node:crypto";
import { audited } from "../audit";
import { db } from "../db/client";
import type { McpServer } from "../db/generated/client";
import { AppError, NotFound } from "../errors";
import { openConnection } from "../mcp/connection";
import { classifyFailure } from "../mcp/failures";
import { beginAuthorization, completeAuthorization, revokeTokens, type CallbackParams } from "../mcp/oauth-flow";
import { memoryStore, StoredOAuthProvider, type OAuthRecord } from "../mcp/oauth-provider";
import { evictKey } from "../mcp/pool";
import { serverConfig } from "../mcp/servers";
import { syncToolRows } from "../mcp/tool-rows";
import { outboundFetch } from "../security/outbound-fetch";
import { openJsonSecretFor, sealJsonSecret } from "../security/stored-secrets";
import type { TeamContext } from "../teams/team-context";
import { credentialStore, openCredential, rememberServerClient, sealKey, type OAuthSecret } from "./mcp-credentials";
import { oauthClientSettings } from "./mcp-member-config";

const PENDING_MS = 10 * 60_000;

type Pending = OAuthRecord & { appUrl?: string; returnTo: string; userId: string };

const hashState = (state: string) => crypto.createHash("sha256").update(state).digest("base64url");

/** A connect refused for a reason the member can act on (shown on the callback page). */
export class ConnectFailed extends AppError {
  constructor(message: string) {
    super("ConnectFailed", 400, message);
  }
}

async function memberServer(ctx: TeamContext, serverId: string, mode?: McpServer["authMode"]): Promise<McpServer> {
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id, enabled: true } });
  if (!server || (mode && server.authMode !== mode) || server.authMode === "shared" || !server.url) throw NotFound("No such MCP server to connect to.");
  return server;
}

/** A path of this app to come back to (never another site). */
export function safeReturnTo(value: string | null | undefined): string {
  return value && value.startsWith("/") && !value.startsWith("//") && !value.includes("\\") && value.length < 500 ? value : "/settings/connections";
}

/** Begins the member's OAuth flow at the server; returns the authorization server's URL to go to. */
export async function startConnect(ctx: TeamContext, serverId: string, opts: { appUrl: string; returnTo?: string }): Promise<URL> {
  const server = await memberServer(ctx, serverId);
  // A key per member is pasted in Settings → Connections.
  if (server.authMode === "member_key") return new URL("/settings/connections", opts.appUrl);
  const prisma = await db();
  const row = await prisma.mcpCredential.findUnique({ where: { serverId_userId: { serverId, userId: ctx.user.id } } });
  const current = row ? openCredential<OAuthSecret>(row, server) : undefined;
  const settings = oauthClientSettings(server, opts.appUrl);
  const store = memoryStore({ clientInformation: current?.clientInformation });
  let begun;
  try {
    begun = await beginAuthorization(store, settings, { serverUrl: server.url!, fetchFn: outboundFetch() }, row?.scope ?? undefined);
  } catch (err) {
    throw new ConnectFailed(`Could not start connecting to "${server.name}": ${flowError(err)}`);
  }
  const pending: Pending = { ...store.record, appUrl: opts.appUrl, returnTo: safeReturnTo(opts.returnTo), userId: ctx.user.id };
  const fields = {
    pendingStateHash: hashState(begun.state),
    pendingEnc: sealJsonSecret(pending, server.url!),
    pendingExpiresAt: new Date(Date.now() + PENDING_MS),
  };
  await prisma.mcpCredential.upsert({
    where: { serverId_userId: { serverId, userId: ctx.user.id } },
    create: { serverId, userId: ctx.user.id, kind: "oauth", ...fields },
    update: fields,
  });
  return begun.authorizationUrl;
}

function flowError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|socket/i.test(`${text} ${String((err as { cause?: unknown })?.cause ?? "")}`)) {
    return "the authorization server cannot be reached.";
  }
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The callback: takes the pending flow by its state (once), exchanges the code, tries and stores the tokens. */
export async function finishConnect(userId: string, state: string | null, params: CallbackParams): Promise<{ returnTo: string; serverName: string }> {
  if (!state || state.length > 500) throw new ConnectFailed("This sign-in link is not valid. Connect again.");
  const prisma = await db();
  const row = await prisma.mcpCredential.findUnique({ where: { pendingStateHash: hashState(state) }, include: { server: true } });
  if (!row || row.userId !== userId) throw new ConnectFailed("This sign-in is not valid or has already been used. Connect again.");
  // Taken once: whatever happens next, this state cannot be used again.
  const taken = await prisma.mcpCredential.updateMany({
    where: { id: row.id, pendingStateHash: row.pendingStateHash },
    data: { pendingStateHash: null, pendingEnc: null, pendingExpiresAt: null },
  });
  if (taken.count !== 1 || !row.pendingEnc || !row.pendingExpiresAt)
    throw new ConnectFailed("This sign-in is not valid or has already been used. Connect again.");
  const server = row.server;
  if (row.pendingExpiresAt.getTime() < Date.now()) throw new ConnectFailed(`The sign-in at "${server.name}" took too long. Connect again.`);
  if (!server.url || server.authMode !== "oauth" || !server.enabled) throw new ConnectFailed(`"${server.name}" no longer takes members' own accounts.`);
  let pending: Pending;
  try {
    pending = openJsonSecretFor<Pending>(row.pendingEnc, server.url)!;
  } catch {
    throw new ConnectFailed(`"${server.name}" moved to another address while you signed in. Connect again.`);
  }
  const settings = oauthClientSettings(server, pending.appUrl);
  const { appUrl: _a, returnTo, userId: _u, ...record } = pending;
  void _a;
  void _u;
  const store = memoryStore(record);
  const target = { serverUrl: server.url, fetchFn: outboundFetch() };
  try {
    await completeAuthorization(store, settings, target, params);
  } catch (err) {
    throw new ConnectFailed(`Connecting to "${server.name}" failed: ${flowError(err)}`);
  }
  try {
    // The tokens must open the server: one for another resource (or refused for any reason) is not kept.
    const conn = await openConnection({ ...serverConfig(server), authProvider: new StoredOAuthProvider(store, settings, "background", target) });
    await conn.close();
    // The first member to connect brings the server's tools into the picker.
    await syncToolRows(server.id, conn.tools);
  } catch (err) {
    const failure = classifyFailure(err);
    const why = failure.kind === "auth" ? `the server refused the token (${failure.detail})` : flowError(err);
    throw new ConnectFailed(`Connecting to "${server.name}" failed: ${why}`);
  }
  const { codeVerifier: _v, ...kept } = store.record;
  void _v;
  await audited(
    { user: { id: userId }, team: { id: server.teamId } },
    (tx) =>
      tx.mcpCredential.update({
        where: { id: row.id },
        data: {
          kind: "oauth",
          secretEnc: sealJsonSecret(kept, server.url!),
          scope: kept.tokens?.scope ?? kept.scope ?? null,
          expiresAt: kept.tokens?.expiresAt ? new Date(kept.tokens.expiresAt) : null,
          needsReconnect: false,
          connectedAt: new Date(),
        },
      }),
    { action: "mcp.connection.connect", targetType: "mcp-server", targetId: server.id, data: { server: server.name, mode: "oauth" } },
  );
  if (kept.clientInformation && "redirect_uris" in kept.clientInformation) await rememberServerClient(server, kept.clientInformation);
  await evictKey(`${server.id}:${userId}`);
  return { returnTo, serverName: server.name };
}

/** Saves a member's own key for a key-per-member server. */
export async function saveMemberKey(ctx: TeamContext, serverId: string, key: string): Promise<void> {
  const server = await memberServer(ctx, serverId, "member_key");
  const fields = { kind: "key", secretEnc: sealKey(server, key), needsReconnect: false, connectedAt: new Date(), expiresAt: null };
  await audited(
    ctx,
    (tx) =>
      tx.mcpCredential.upsert({
        where: { serverId_userId: { serverId, userId: ctx.user.id } },
        create: { serverId, userId: ctx.user.id, ...fields },
        update: fields,
      }),
    { action: "mcp.connection.connect", targetType: "mcp-server", targetId: server.id, data: { server: server.name, mode: "key" } },
  );
  await evictKey(`${server.id}:${ctx.user.id}`);
}

/** Removes the member's own credential (their own only), revoking OAuth tokens first. */
export async function disconnect(ctx: TeamContext, serverId: string): Promise<{ revoked: boolean }> {
  const prisma = await db();
  const row = await prisma.mcpCredential.findFirst({ where: { serverId, userId: ctx.user.id, server: { teamId: ctx.team.id } }, include: { server: true } });
  if (!row) throw NotFound("You have no connection to this server.");
  let revoked = false;
  if (row.kind === "oauth" && row.secretEnc) {
    const result = await revokeTokens(credentialStore(row.server, ctx.user.id), oauthClientSettings(row.server), outboundFetch());
    revoked = result.revoked;
  }
  await audited(ctx, (tx) => tx.mcpCredential.delete({ where: { id: row.id } }), {
    action: "mcp.connection.disconnect",
    targetType: "mcp-server",
    targetId: serverId,
    data: { server: row.server.name, revoked },
  });
  await evictKey(`${serverId}:${ctx.user.id}`);
  return { revoked };
}
