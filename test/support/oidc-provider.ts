// A real OpenID provider on loopback for tests: `oidc-provider` (a certified implementation) with
// our own small login page (user name and password, checked), configurable clients, and users whose
// claims (email, name, groups) a test can change between sign-ins, and a discovery document a test
// can make hostile (another token endpoint, say). Consent is granted with the
// login, so a sign-in is one form. Not imported by the app.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export type OidcTestUser = { sub: string; password: string; email: string; name: string; groups: string[]; emailVerified?: boolean };
export type OidcTestClient = {
  clientId: string;
  clientSecret?: string;
  redirectUris: string[];
  /** How the client authenticates at the token endpoint; default client_secret_basic (none without a secret). */
  tokenEndpointAuthMethod?: "client_secret_basic" | "client_secret_post" | "none";
  scopes?: string[];
};
export type OidcProviderOptions = {
  /** Port to listen on (127.0.0.1); 0 or unset: one the OS picks. */
  port?: number;
  clients: OidcTestClient[];
  users: OidcTestUser[];
  /** Name of the claim that carries the groups; default "groups". */
  groupsClaim?: string;
  /** Put the user's claims in the ID token too (many providers do); default false (userinfo only). */
  claimsInIdToken?: boolean;
};
/** Fields that replace the provider's own in its discovery document (a hostile or misconfigured issuer). */
export type DiscoveryOverrides = Record<string, unknown>;
export type RunningOidcProvider = {
  issuer: string;
  port: number;
  /** Changes a user's groups at the provider (seen at their next sign-in). */
  setGroups(sub: string, groups: string[]): void;
  /** Serves a discovery document with these fields replaced (e.g. another token_endpoint); {} restores it. */
  setDiscovery(overrides: DiscoveryOverrides): void;
  /** Every request path the provider answered, in order (e.g. to see a token exchange happened). */
  requests: string[];
  stop(): Promise<void>;
};

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginForm(uid: string, clientId: string, error?: string) {
  return page(
    "Test identity provider",
    `<p>Sign in to continue to ${escapeHtml(clientId)}.</p>` +
      (error ? `<p role="alert">${escapeHtml(error)}</p>` : "") +
      `<form method="post" action="/interaction/${escapeHtml(uid)}/login">` +
      `<label>Username <input name="username" autocomplete="username" required></label>` +
      `<label>Password <input name="password" type="password" autocomplete="current-password" required></label>` +
      `<button type="submit">Sign in</button></form>`,
  );
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

export async function startOidcProvider(options: OidcProviderOptions): Promise<RunningOidcProvider> {
  const groupsClaim = options.groupsClaim ?? "groups";
  const users = new Map(options.users.map((u) => [u.sub, { ...u, groups: [...u.groups] }]));
  const requests: string[] = [];
  let discovery: DiscoveryOverrides = {};
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      client_id: c.clientId,
      ...(c.clientSecret ? { client_secret: c.clientSecret } : {}),
      redirect_uris: c.redirectUris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: c.tokenEndpointAuthMethod ?? (c.clientSecret ? "client_secret_basic" : "none"),
      ...(c.scopes ? { scope: c.scopes.join(" ") } : {}),
    })),
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, email: user.email, email_verified: user.emailVerified ?? true, name: user.name, [groupsClaim]: [...user.groups] };
        },
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: [groupsClaim] },
    scopes: ["openid", "email", "profile", "groups", "offline_access"],
    conformIdTokenClaims: !options.claimsInIdToken,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["parley-test-oidc-cookie-key"] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600, RefreshToken: 3600 },
    // Loopback http issuer and redirect URIs are fine for a test provider.
    clientBasedCORS: () => true,
  });
  provider.proxy = false;
  const callback = provider.callback();

  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    requests.push(url.pathname);
    if (url.pathname === "/.well-known/openid-configuration" && Object.keys(discovery).length && !req.headers["x-own-document"]) {
      // The provider's own document (asked of itself) with the test's fields put in.
      void fetch(`${issuer}${url.pathname}`, { headers: { "x-own-document": "1" } })
        .then((r) => r.json() as Promise<Record<string, unknown>>)
        .then((own) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...own, ...discovery })));
      return;
    }
    const m = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (!m) return void callback(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        const clientId = String(details.params.client_id);
        if (!m[2]) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(loginForm(details.uid, clientId));
          return;
        }
        const form = await readForm(req);
        const user = users.get(form.get("username") ?? "");
        if (!user || user.password !== form.get("password")) {
          res.writeHead(401, { "content-type": "text/html; charset=utf-8" }).end(loginForm(details.uid, clientId, "Wrong username or password."));
          return;
        }
        const grant = new provider.Grant({ accountId: user.sub, clientId });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: user.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (err) {
        res.writeHead(400, { "content-type": "text/plain" }).end(`Interaction failed: ${(err as Error).message}`);
      }
    })();
  });

  return {
    issuer,
    port,
    requests,
    setDiscovery(overrides) {
      discovery = { ...overrides };
    },
    setGroups(sub, groups) {
      const user = users.get(sub);
      if (!user) throw new Error(`No test user ${sub}`);
      user.groups = [...groups];
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
