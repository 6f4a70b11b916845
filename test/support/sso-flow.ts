// Test helper: a single sign-on as a browser does it, against Parley's better-auth handler and a real
// OpenID provider (test/support/oidc-provider.ts): start at /sign-in/social, sign in on the
// provider's login page, come back to /callback/sso; or sign in with a password and link the
// provider. Each "browser" keeps its own cookies, so a test can mix up two sign-ins (state or PKCE
// mismatch) or replay a callback. Not imported by the app.
import { getAuth, type Auth } from "../../lib/auth/auth";

export const APP_BASE = "http://localhost:3000";

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  has(name: RegExp): boolean {
    return [...this.cookies.keys()].some((k) => name.test(k));
  }
}

/** One browser: its cookies for Parley. */
export class Browser {
  readonly jar = new CookieJar();
  constructor(private readonly auth: Auth) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("origin", APP_BASE);
    const cookie = this.jar.header();
    if (cookie) headers.set("cookie", cookie);
    const res = await this.auth.handler(new Request(`${APP_BASE}${path}`, { ...init, headers, redirect: "manual" }));
    this.jar.take(res);
    return res;
  }

  /** POST /sign-in/social for the SSO provider: the provider's authorization URL (or the error response). */
  async startSignIn(callbackURL = "/chat"): Promise<{ res: Response; url?: string }> {
    const res = await this.request("/api/auth/sign-in/social", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider: "sso", callbackURL, errorCallbackURL: "/sign-in" }),
    });
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { url?: string };
    return { res, url: body.url };
  }

  /** Signs in with email and password (POST /sign-in/email), as the password form does. */
  async passwordSignIn(email: string, password: string): Promise<Response> {
    return this.request("/api/auth/sign-in/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
  }

  /** POST /link-social for the SSO provider while signed in: the provider's authorization URL (or the error response). */
  async startLink(callbackURL = "/profile"): Promise<{ res: Response; url?: string }> {
    const res = await this.request("/api/auth/link-social", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ provider: "sso", callbackURL, errorCallbackURL: "/profile" }),
    });
    const body = (await res
      .clone()
      .json()
      .catch(() => ({}))) as { url?: string };
    return { res, url: body.url };
  }

  /** GET the callback URL the provider sent the browser to. */
  callback(callbackUrl: string): Promise<Response> {
    const u = new URL(callbackUrl);
    return this.request(`${u.pathname}${u.search}`);
  }

  signedIn(): boolean {
    return this.jar.has(/session_token$/);
  }
}

/**
 * Signs in at the provider's login page (its own cookies) and returns the URL the provider redirects
 * back to (Parley's callback with code, state and iss).
 */
export async function loginAtProvider(authorizeUrl: string, username: string, password: string): Promise<string> {
  const jar = new CookieJar();
  const go = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    jar.take(res);
    return res;
  };
  let url = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await go(url);
    if (res.status === 200 && /\/interaction\//.test(url)) {
      await res.text();
      const login = await go(`${url}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password }).toString(),
      });
      if (login.status >= 400) throw new Error(`provider refused the login (${login.status})`);
      url = new URL(login.headers.get("location")!, url).href;
      continue;
    }
    const location = res.headers.get("location");
    if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${await res.text()}`);
    const next = new URL(location, url).href;
    if (next.startsWith(APP_BASE)) return next;
    url = next;
  }
  throw new Error("too many redirects at the provider");
}

/** The Cookie header of a session made by signing in with email and password, as a browser would. */
export async function signedInCookie(email: string, password: string): Promise<string> {
  const browser = new Browser(await getAuth());
  const res = await browser.request("/api/auth/sign-in/email", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`signing in as ${email} answered ${res.status}`);
  return browser.jar.header();
}
