// The MCP SDK's OAuthClientProvider for one client identity at one MCP server, backed by a store the
// caller owns (lib/identity keeps one per member and server in the database; the conformance client
// keeps one in memory). The SDK's `auth()` does the MCP authorization flow of the 2025-11-25 and
// 2026-07-28 revisions: protected-resource metadata (from WWW-Authenticate or the well-known URLs),
// authorization server metadata (OAuth and OpenID discovery, whose issuer must be exactly the URL it
// was fetched from, RFC 8414 §3.3), the client (pre-registered → client ID metadata document →
// dynamic registration), PKCE, resource indicators, scopes and the authorization response's `iss`
// (RFC 9207). The SDK stamps every client and token set it saves with the issuer that gave it and
// ignores one stamped by another issuer, so a server that moves to another authorization server gets
// a new registration and sign-in. What this adds:
// - the server-wide clients (an admin's, or the first member's registration), one per issuer;
// - refresh before expiry: a token that expires within a minute is refreshed before it is sent, and
//   a token the server refuses is renewed (`renewRefused`, called by connection.ts on a 401);
// - one refresh at a time per identity in this process: the authorization server rotates refresh
//   tokens and treats a spent one sent again as stolen (it revokes the whole grant), so callers that
//   hold the same expired token wait for one refresh and use its result;
// - a refresh that could not reach the authorization server (down, 5xx) keeps the tokens and says
//   so (AuthorizationServerUnavailable): it is not the member's to fix by connecting again;
// - two modes: "interactive" (a member is at the browser: the authorization URL is kept for the
//   redirect) and "background" (a tool call: no one can log in, so a needed login is ConnectRequired).
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import {
  auth,
  type FetchLike,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { standardResponses } from "./standard-response";

/** What one identity keeps for one server. `expiresAt` (ms) is ours; the rest is the SDK's, unchanged. */
export type OAuthRecord = {
  tokens?: StoredOAuthTokens & { expiresAt?: number };
  clientInformation?: StoredOAuthClientInformation;
  discovery?: OAuthDiscoveryState;
  codeVerifier?: string;
  /** The scope a flow asked for (a step-up asks for more). */
  scope?: string;
};

export type OAuthStore = {
  /** Who and where (e.g. server and member): refreshes of one key never overlap. Default: the store object. */
  key?: string;
  read(): Promise<OAuthRecord>;
  write(patch: Partial<OAuthRecord>): Promise<void>;
};

export type OAuthClientSettings = {
  /** Where the authorization server sends the member back (Parley's callback route). */
  redirectUrl: string;
  /** Parley's client ID metadata document: used when the server supports it and the URL is https. */
  clientMetadataUrl?: string;
  clientName: string;
  clientUri?: string;
  /** Asked for when neither WWW-Authenticate nor the resource metadata names scopes. */
  scope?: string;
  /**
   * The server-wide clients: an admin's pre-registered one (unstamped: for any issuer) and those
   * members' flows registered, each stamped with its issuer. Used when the identity has none of its own.
   */
  preRegistered?: StoredOAuthClientInformation[];
};

/** The member has to (re)connect in the browser: no token, or it was refused and cannot be refreshed. */
export class ConnectRequired extends Error {
  constructor(
    message: string,
    readonly scope?: string,
  ) {
    super(message);
    this.name = "ConnectRequired";
  }
}

/** A token could not be renewed because the authorization server did not answer (down, 5xx); the tokens are kept. */
export class AuthorizationServerUnavailable extends Error {
  constructor(detail: string) {
    super(`The authorization server could not be reached to renew your access (${detail}); try again in a moment.`);
    this.name = "AuthorizationServerUnavailable";
  }
}

const REFRESH_AHEAD_MS = 60_000;

/**
 * The refresh under way (or last begun) per identity, in this process: the next one waits for it. On
 * globalThis, like the pool, because Next evaluates modules once per bundle.
 */
const REFRESHES = Symbol.for("parley.mcpOAuthRefreshes");
const refreshes: Map<unknown, Promise<void>> = ((globalThis as { [REFRESHES]?: Map<unknown, Promise<void>> })[REFRESHES] ??= new Map());
/** Set while this module's own auth() runs, whose tokens() calls must read the store as it is. */
const insideRefresh = new AsyncLocalStorage<true>();

/** The server-wide client for `issuer`: the one stamped with it, else an unstamped (admin's) one. */
export function serverClientFor(clients: StoredOAuthClientInformation[] | undefined, issuer: string | undefined): StoredOAuthClientInformation | undefined {
  if (!clients?.length) return undefined;
  return (issuer ? clients.find((c) => c.issuer === issuer) : undefined) ?? clients.find((c) => !c.issuer);
}

export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set by redirectToAuthorization in interactive mode. */
  authorizationUrl?: URL;

  constructor(
    private readonly store: OAuthStore,
    private readonly settings: OAuthClientSettings,
    private readonly mode: "interactive" | "background",
    /** For refreshing ahead of expiry: the MCP server and the fetch to reach its authorization server. */
    private readonly server?: { serverUrl: string; fetchFn?: FetchLike },
  ) {}

  get redirectUrl(): string {
    return this.settings.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    const url = this.settings.clientMetadataUrl;
    return url && url.startsWith("https://") ? url : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.settings.clientName,
      client_uri: this.settings.clientUri,
      redirect_uris: [this.settings.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: this.settings.scope,
    };
  }

  state(): string {
    return crypto.randomBytes(32).toString("base64url");
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const own = (await this.store.read()).clientInformation;
    // The SDK itself ignores a client stamped by another issuer; a server-wide one may fit instead.
    if (own && (!ctx || !own.issuer || own.issuer === ctx.issuer)) return own;
    return serverClientFor(this.settings.preRegistered, ctx?.issuer) ?? own;
  }

  async saveClientInformation(clientInformation: StoredOAuthClientInformation): Promise<void> {
    await this.store.write({ clientInformation });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    if (insideRefresh.getStore()) return (await this.store.read()).tokens;
    // A refresh under way gives the tokens to use: wait for it rather than send the old ones.
    await refreshes.get(this.refreshKey)?.catch(() => {});
    const tokens = (await this.store.read()).tokens;
    if (!tokens || !this.server) return tokens;
    const expiring = tokens.expiresAt !== undefined && tokens.expiresAt - Date.now() < REFRESH_AHEAD_MS;
    if (!expiring || !tokens.refresh_token) return tokens;
    await this.refresh(tokens.access_token);
    return (await this.store.read()).tokens;
  }

  /**
   * The server refused `sent` (a 401): renews it, once for every call that was refused with it. The
   * access token to try again with, or undefined when there is none (the member connects again).
   */
  async renewRefused(sent: string): Promise<string | undefined> {
    if (!this.server) return undefined;
    await this.refresh(sent);
    const now = (await this.store.read()).tokens?.access_token;
    return now === sent ? undefined : now;
  }

  private get refreshKey(): unknown {
    return this.store.key ?? this.store;
  }

  /** Refreshes unless the stored access token is no longer `stale` (another call renewed or dropped it). */
  private refresh(stale: string): Promise<void> {
    const key = this.refreshKey;
    const run = (refreshes.get(key) ?? Promise.resolve())
      .catch(() => {})
      .then(async () => {
        const record = await this.store.read();
        if (record.tokens?.access_token !== stale) return;
        await this.refreshNow(record.scope);
      });
    refreshes.set(key, run);
    void run.catch(() => {}).finally(() => refreshes.get(key) === run && refreshes.delete(key));
    return run;
  }

  /** The SDK's auth() with the stored refresh token; a token endpoint that did not answer is told apart. */
  private async refreshNow(scope: string | undefined): Promise<void> {
    let trouble: string | undefined;
    const base = standardResponses(this.server!.fetchFn ?? fetch);
    const fetchFn: FetchLike = async (url, init) => {
      try {
        const res = await base(url, init);
        if (res.status >= 500) trouble = `HTTP ${res.status}`;
        return res;
      } catch (err) {
        trouble = err instanceof Error ? err.message : String(err);
        throw err;
      }
    };
    try {
      await insideRefresh.run(true, () => auth(this, { serverUrl: this.server!.serverUrl, fetchFn, scope }));
    } catch (err) {
      // A refused refresh (invalid_grant) dropped the tokens and asks to connect; one that got no
      // answer kept them, and the next call tries again.
      if (err instanceof ConnectRequired && trouble && (await this.store.read()).tokens?.refresh_token) throw new AuthorizationServerUnavailable(trouble);
      throw err;
    }
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined;
    await this.store.write({ tokens: { ...tokens, expiresAt }, codeVerifier: undefined });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (this.mode === "background") {
      const scope = authorizationUrl.searchParams.get("scope") ?? undefined;
      throw new ConnectRequired("Connect your account to use this server.", scope);
    }
    this.authorizationUrl = authorizationUrl;
    await this.store.write({ scope: authorizationUrl.searchParams.get("scope") ?? undefined });
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.mode === "interactive") await this.store.write({ codeVerifier });
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.store.read()).codeVerifier;
    if (!verifier) throw new ConnectRequired("This sign-in was not started here or has already been used. Connect again.");
    return verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "all") await this.store.write({ tokens: undefined, clientInformation: undefined, codeVerifier: undefined, discovery: undefined });
    else if (scope === "client") await this.store.write({ clientInformation: undefined });
    else if (scope === "tokens") await this.store.write({ tokens: undefined });
    else if (scope === "verifier") await this.store.write({ codeVerifier: undefined });
    else await this.store.write({ discovery: undefined });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.store.write({ discovery: state });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.store.read()).discovery;
  }
}

/** A store in memory (the conformance client; tests). */
export function memoryStore(initial: OAuthRecord = {}): OAuthStore & { record: OAuthRecord } {
  const holder = { record: { ...initial } };
  return {
    get record() {
      return holder.record;
    },
    async read() {
      return holder.record;
    },
    async write(patch) {
      holder.record = { ...holder.record, ...patch };
    },
  };
}
