// Test support: a real OAuth authorization server (`oidc-provider`, certified, with resource
// indicators, dynamic client registration, PKCE, refresh tokens, revocation and its development login
// page) and a protected MCP server of our own (the MCP SDK's requireBearerAuth, checking that each
// token was issued for this resource) whose `whoami` tool answers with the caller's identity (the
// token's subject: the login typed on the provider's page), speaking 2025-11-25 (the SDK 1.x server)
// or 2026-07-28 (the SDK v2 server package; PARLEY_TEST_MCP_REVISION or `revision`). Both on loopback. Options make it
// misbehave on purpose: tokens for another resource, or resource metadata that points at another
// issuer than the authorization server names. Hooks let a test expire or revoke a member's tokens
// as the authorization server would, count refreshes, or take the authorization server down.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { createMcpHandler, McpServer as McpServer2026 } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod/v4";
import { TEST_REVISION } from "./test-servers";

export const MCP_SCOPE = "tools:read";

export type McpAuthStackOptions = {
  /** Ports (0: any free one). */
  asPort?: number;
  mcpPort?: number;
  /** Issue tokens for this resource instead of the MCP server's (a token for another resource). */
  tokenAudience?: string;
  /** The resource metadata names this as the authorization server (e.g. another host than the issuer). */
  advertisedIssuer?: string;
  accessTokenTtlSec?: number;
  /** The MCP revision the protected server speaks (default: this test run's, test-servers.ts). */
  revision?: "2025-11-25" | "2026-07-28";
};

export type McpAuthStack = {
  issuer: string;
  mcpUrl: string;
  /** How many grants the authorization server revoked (a revocation request ends the whole grant). */
  revocations(): number;
  /** Makes the account's access tokens invalid, as if they had expired (refresh tokens stay). */
  expireAccessTokens(account: string): Promise<number>;
  /** Revokes everything the account was given (access and refresh tokens): they must log in again. */
  revokeAccount(account: string): Promise<void>;
  /** Revokes only the account's refresh tokens: its next refresh is refused (invalid_grant). */
  revokeRefreshTokens(account: string): Promise<number>;
  /** How many refresh_token grants the token endpoint answered with new tokens. */
  refreshes(): number;
  /** Stops the authorization server (nothing listens on its port; its state is kept), and starts it again. */
  stopAuthorizationServer(): Promise<void>;
  startAuthorizationServer(): Promise<void>;
  close(): Promise<void>;
};

type Tracked = { access: Map<string, string>; refresh: Map<string, string> };

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Express-style response helpers the SDK's bearer middleware uses, on a plain node response. */
function expressish(res: http.ServerResponse) {
  const r = res as http.ServerResponse & { set(n: string, v: string): typeof r; status(c: number): typeof r; json(b: unknown): void };
  r.set = (n, v) => (res.setHeader(n, v), r);
  r.status = (c) => ((res.statusCode = c), r);
  r.json = (b) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(b));
  };
  return r;
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

export async function startMcpAuthStack(opts: McpAuthStackOptions = {}): Promise<McpAuthStack> {
  const asServer = http.createServer();
  const mcpHttp = http.createServer();
  const asPort = await listen(asServer, opts.asPort ?? 0);
  const mcpPort = await listen(mcpHttp, opts.mcpPort ?? 0);
  const issuer = `http://127.0.0.1:${asPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const tracked: Tracked = { access: new Map(), refresh: new Map() };
  let revocations = 0;
  let refreshes = 0;

  const provider = new Provider(issuer, {
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: MCP_SCOPE,
          audience: opts.tokenAudience ?? mcpUrl,
          accessTokenTTL: opts.accessTokenTtlSec ?? 3600,
          accessTokenFormat: "opaque",
        }),
      },
    },
    scopes: ["openid", "offline_access", MCP_SCOPE],
    pkce: { required: () => true },
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(g: string): boolean }) => client.grantTypeAllowed("refresh_token"),
    clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" },
  });
  provider.on("access_token.saved", (t: { jti: string; accountId?: string }) => t.accountId && tracked.access.set(t.jti, t.accountId));
  provider.on("refresh_token.saved", (t: { jti: string; accountId?: string }) => t.accountId && tracked.refresh.set(t.jti, t.accountId));
  provider.on("grant.revoked", () => void revocations++);
  provider.on("grant.success", (ctx: { oidc: { params?: { grant_type?: string } } }) => ctx.oidc.params?.grant_type === "refresh_token" && void refreshes++);
  asServer.on("request", provider.callback());

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const at = await provider.AccessToken.find(token);
      if (!at || at.isExpired) throw new InvalidTokenError("The token is unknown, expired or revoked.");
      return {
        token,
        clientId: at.clientId ?? "",
        scopes: (at.scope ?? "").split(" ").filter(Boolean),
        expiresAt: at.exp,
        resource: typeof at.aud === "string" ? new URL(at.aud) : undefined,
        extra: { sub: at.accountId },
      };
    },
  };
  const prmPath = "/.well-known/oauth-protected-resource/mcp";
  const guard = requireBearerAuth({
    verifier,
    requiredScopes: [MCP_SCOPE],
    resourceMetadataUrl: `http://127.0.0.1:${mcpPort}${prmPath}`,
    expectedResource: new URL(mcpUrl),
  });

  // 2026-07-28: stateless by nature; the verified token reaches the tool as the request's authInfo.
  const modern = toNodeHandler(
    createMcpHandler(
      () => {
        const server = new McpServer2026({ name: "parley-protected-test", version: "1.0.0" });
        server.registerTool(
          "whoami",
          { description: "Says who is calling (the token's subject).", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
          async (_args, ctx) => ({
            content: [{ type: "text" as const, text: `You are ${String(ctx.http?.authInfo?.extra?.sub)}` }],
          }),
        );
        return server;
      },
      { legacy: "reject" },
    ),
  );
  const revision = opts.revision ?? TEST_REVISION;

  mcpHttp.on("request", async (req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${mcpPort}`);
    if (url.pathname === prmPath) {
      res.setHeader("content-type", "application/json");
      return res.end(
        JSON.stringify({
          resource: mcpUrl,
          authorization_servers: [opts.advertisedIssuer ?? issuer],
          scopes_supported: [MCP_SCOPE],
          bearer_methods_supported: ["header"],
        }),
      );
    }
    if (url.pathname !== "/mcp") return void ((res.statusCode = 404), res.end());
    const r = expressish(res);
    const authed = req as http.IncomingMessage & { auth?: AuthInfo };
    // The SDK's express middleware, on plain node objects (it answers 401/403 itself, or calls next).
    const run = guard as unknown as (req: unknown, res: unknown, next: () => void) => Promise<void>;
    await new Promise<void>((next) => void run(authed, r, next).then(() => res.writableEnded && next()));
    if (res.writableEnded) return;
    if (revision === "2026-07-28") return void (await modern(authed, res));
    const server = new McpServer({ name: "parley-protected-test", version: "1.0.0" });
    server.registerTool("whoami", { description: "Says who is calling (the token's subject).", annotations: { readOnlyHint: true } }, async (extra) => ({
      content: [{ type: "text" as const, text: `You are ${String(extra.authInfo?.extra?.sub)}` }],
    }));
    // Stateless: one transport per request (every request carries its own token).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(authed, res, req.method === "POST" ? await readBody(req) : undefined);
  });

  const destroyTokens = async (kind: "access" | "refresh", account: string) => {
    let n = 0;
    for (const [jti, owner] of tracked[kind]) {
      if (owner !== account) continue;
      const token = kind === "access" ? await provider.AccessToken.find(jti) : await provider.RefreshToken.find(jti);
      if (token) {
        await token.destroy();
        n++;
      }
      tracked[kind].delete(jti);
    }
    return n;
  };

  return {
    issuer,
    mcpUrl,
    revocations: () => revocations,
    expireAccessTokens: (account) => destroyTokens("access", account),
    async revokeAccount(account) {
      await destroyTokens("access", account);
      await destroyTokens("refresh", account);
    },
    revokeRefreshTokens: (account) => destroyTokens("refresh", account),
    refreshes: () => refreshes,
    async stopAuthorizationServer() {
      asServer.closeAllConnections();
      await new Promise((r) => asServer.close(r));
    },
    async startAuthorizationServer() {
      await listen(asServer, asPort);
    },
    async close() {
      mcpHttp.closeAllConnections();
      asServer.closeAllConnections();
      await Promise.all([new Promise((r) => mcpHttp.close(r)), new Promise((r) => (asServer.listening ? asServer.close(r) : r(undefined)))]);
    },
  };
}

/**
 * Follows an authorization URL as a browser would, logging in as `account` on the provider's login
 * page and consenting, until the authorization server redirects to `redirectPrefix`; returns that URL.
 */
export async function loginHeadless(authorizationUrl: URL, account: string, redirectPrefix: string): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return res;
  };
  let url = authorizationUrl;
  for (let hops = 0; hops < 20; hops++) {
    if (url.href.startsWith(redirectPrefix)) return url;
    let res = await send(url);
    if (res.status === 200 && url.pathname.startsWith("/interaction/")) {
      const page = await res.text();
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1] ?? "consent";
      const body = new URLSearchParams(prompt === "login" ? { prompt, login: account, password: "any" } : { prompt });
      res = await send(url, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`The authorization server stopped at ${url.pathname} (HTTP ${res.status}): ${(await res.text()).slice(0, 300)}`);
    url = new URL(location, url);
  }
  throw new Error("Too many redirects at the authorization server.");
}
