// The two halves of connecting an account to an MCP server, and disconnecting it, on the SDK's
// `auth()`: begin (discovery, client registration, PKCE; gives the authorization URL to send the
// browser to), complete (the SDK checks the authorization response's `iss` against the issuer the
// flow began at, exactly, RFC 9207, then exchanges the code with the stored PKCE verifier and the
// resource indicator) and revoke (RFC 7009, best effort). The store is the caller's (oauth-provider.ts).
import {
  auth,
  AuthorizationServerMismatchError,
  extractWWWAuthenticateParams,
  IssuerMismatchError,
  selectClientAuthMethod,
  type FetchLike,
} from "@modelcontextprotocol/client";
import { standardResponses } from "./standard-response";
import { ConnectRequired, serverClientFor, StoredOAuthProvider, type OAuthClientSettings, type OAuthStore } from "./oauth-provider";

export type FlowTarget = { serverUrl: string; fetchFn?: FetchLike };

/** The target's fetch, answering with the Response class the SDK reads OAuth errors from. */
const oauthFetch = (target: FlowTarget) => standardResponses(target.fetchFn ?? fetch);

/**
 * An issuer that is not the one expected (in the metadata, or the answer's `iss`): said in Parley's
 * words, since what the other side named is its text and is never shown.
 */
function untrusted(err: unknown): never {
  if (err instanceof IssuerMismatchError) {
    throw new ConnectRequired(
      err.kind === "metadata"
        ? "The authorization server's metadata names another issuer than the address it was found at, so Parley does not trust it."
        : "The answer did not come from the authorization server where the sign-in started; nothing was stored.",
    );
  }
  if (err instanceof AuthorizationServerMismatchError)
    throw new ConnectRequired("The server now sends sign-ins to another authorization server than before. Connect again.");
  throw err;
}

/** Discovers, registers when needed, and returns where to send the browser (state inside). */
export async function beginAuthorization(
  store: OAuthStore,
  settings: OAuthClientSettings,
  target: FlowTarget,
  scope?: string,
): Promise<{ authorizationUrl: URL; state: string }> {
  const provider = new StoredOAuthProvider(store, settings, "interactive");
  // A new flow starts from fresh discovery (the server may have moved to another authorization
  // server), led by what the server says when asked without a token: where its resource metadata
  // is, and which scope it wants.
  await provider.invalidateCredentials("discovery");
  const challenge = await askWithoutToken(target);
  const result = await auth(provider, {
    serverUrl: target.serverUrl,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    scope: scope ?? challenge.scope,
    fetchFn: oauthFetch(target),
  }).catch(untrusted);
  if (result === "AUTHORIZED" || !provider.authorizationUrl) throw new Error("The authorization server gave tokens without a sign-in; connect again.");
  const state = provider.authorizationUrl.searchParams.get("state");
  if (!state) throw new Error("The authorization URL carries no state.");
  return { authorizationUrl: provider.authorizationUrl, state };
}

/** The server's 401 challenge to a request without a token (an initialize), if it answers with one. */
async function askWithoutToken(target: FlowTarget): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const res = await (target.fetchFn ?? fetch)(target.serverUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "parley", version: "0.1.0" } },
      }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel().catch(() => {});
    if (res.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(res);
    return { resourceMetadataUrl, scope };
  } catch {
    // Unreachable now: discovery says so with its own error.
    return {};
  }
}

/** The parameters the authorization server sent back to the callback. */
export type CallbackParams = { code?: string | null; iss?: string | null; error?: string | null; errorDescription?: string | null };

/** Exchanges the code for tokens (stored through the store). Throws with a message a member can read. */
export async function completeAuthorization(store: OAuthStore, settings: OAuthClientSettings, target: FlowTarget, params: CallbackParams): Promise<void> {
  if (params.error) throw new ConnectRequired(`The authorization server refused: ${params.errorDescription || params.error}.`);
  if (!params.code) throw new ConnectRequired("The authorization server sent no code back.");
  const record = await store.read();
  if (!record.discovery) throw new ConnectRequired("This sign-in was not started here or has already been used. Connect again.");
  const provider = new StoredOAuthProvider(store, settings, "interactive");
  const result = await auth(provider, {
    serverUrl: target.serverUrl,
    authorizationCode: params.code,
    iss: params.iss ?? undefined,
    scope: record.scope,
    fetchFn: oauthFetch(target),
  }).catch(untrusted);
  if (result !== "AUTHORIZED") throw new ConnectRequired("The authorization server did not give a token.");
}

/** Asks the authorization server to revoke the tokens (RFC 7009). Never throws: disconnecting goes on. */
export async function revokeTokens(
  store: OAuthStore,
  settings: OAuthClientSettings,
  fetchFn: FetchLike = fetch,
): Promise<{ revoked: boolean; reason?: string }> {
  const record = await store.read();
  const endpoint = (record.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined)?.revocation_endpoint;
  const issuer = record.discovery?.authorizationServerMetadata?.issuer;
  const client = record.clientInformation ?? serverClientFor(settings.preRegistered, issuer);
  const tokens = record.tokens;
  if (!tokens) return { revoked: false, reason: "no token" };
  if (!endpoint || !client) return { revoked: false, reason: "the authorization server offers no revocation" };
  const methods =
    (record.discovery?.authorizationServerMetadata as { revocation_endpoint_auth_methods_supported?: string[] } | undefined)
      ?.revocation_endpoint_auth_methods_supported ?? [];
  const method = selectClientAuthMethod(client, methods);
  const revokeOne = async (token: string, hint: string) => {
    const params = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    if (method === "client_secret_basic" && client.client_secret) {
      headers.set(
        "authorization",
        `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`,
      );
    } else {
      params.set("client_id", client.client_id);
      if (method === "client_secret_post" && client.client_secret) params.set("client_secret", client.client_secret);
    }
    const res = await fetchFn(endpoint, { method: "POST", headers, body: params, signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`revocation answered ${res.status}`);
  };
  try {
    // Revoking the refresh token ends the grant; the access token too, for servers that keep them apart.
    if (tokens.refresh_token) await revokeOne(tokens.refresh_token, "refresh_token");
    await revokeOne(tokens.access_token, "access_token");
    return { revoked: true };
  } catch (err) {
    return { revoked: false, reason: (err as Error).message };
  }
}
