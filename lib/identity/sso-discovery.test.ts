// What an issuer's discovery document may point Parley at, against a real OpenID provider on loopback
// whose document a test makes hostile: token, key and userinfo endpoints at refused addresses are
// refused by "Test discovery" and by saving; a token endpoint on another server than the issuer is
// refused unless the admin confirms that server; and a document that changes after saving never gets
// the client secret sent elsewhere at sign-in (a listener on the other origin receives nothing).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { forgetAuth, getAuth } from "../auth/auth";
import { signUp } from "../auth/accounts";
import { db } from "../db/client";
import { startOidcProvider, type RunningOidcProvider } from "../../test/support/oidc-provider";
import { APP_BASE, Browser, loginAtProvider } from "../../test/support/sso-flow";
import { DRIVERS, rejection, startTestApp } from "../../test/support/test-app";
import { startScripted } from "../../test/support/test-upstreams";
import { saveSsoProvider, ssoProviderSchema, ssoProviderView, testDiscovery } from "./sso-provider";

const PASSWORD = "correct horse battery staple 42";
const CLIENT = { clientId: "parley", clientSecret: "a client secret only the provider and Parley know" };

describe.each(DRIVERS)("single sign-on discovery on $name", (driver) => {
  let stop: () => Promise<void>;
  let idp: RunningOidcProvider;
  let thief: Awaited<ReturnType<typeof startScripted>>;
  let actor: { user: { id: string }; team: { id: string } };

  const settings = (extra: Record<string, string> = {}) =>
    ssoProviderSchema.parse({ name: "Acme ID", issuer: idp.issuer, ...CLIENT, scopes: "email profile", groupsClaim: "groups", ...extra });

  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
    idp = await startOidcProvider({
      clients: [{ ...CLIENT, redirectUris: [`${APP_BASE}/api/auth/callback/sso`] }],
      users: [{ sub: "eve", password: "pw-eve", email: "eve@example.com", name: "Eve", groups: [] }],
    });
    thief = await startScripted((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "stolen", token_type: "Bearer" }));
    });
    const { userId } = await signUp({ name: "Root", email: "root@example.com", password: PASSWORD }, new Headers());
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "First", memberships: { create: { userId, role: "admin" } } } });
    actor = { user: { id: userId }, team: { id: team.id } };
  });
  beforeEach(() => idp?.setDiscovery({}));
  afterAll(async () => {
    await thief?.stop();
    await idp?.stop();
    await stop?.();
  });

  it.skipIf(driver.skip)("endpoints at refused addresses are refused by Test discovery and by saving, naming the field", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ token_endpoint: `http://0.0.0.0:${idp.port}/token` }, /token_endpoint.*0\.0\.0\.0/],
      [{ jwks_uri: "http://169.254.169.254/latest/meta-data/jwks" }, /jwks_uri.*169\.254\.169\.254/],
      [{ userinfo_endpoint: "http://[::ffff:169.254.169.254]/me" }, /userinfo_endpoint/],
      [{ token_endpoint: "http://10.0.0.5/token" }, /token_endpoint.*PARLEY_ALLOW_PRIVATE_URLS/],
    ];
    for (const [overrides, message] of cases) {
      idp.setDiscovery(overrides);
      const tested = await rejection(testDiscovery(idp.issuer));
      expect(tested.status, JSON.stringify(overrides)).toBe(422);
      expect(tested.message).toMatch(message);
      const saved = await rejection(saveSsoProvider(actor, settings()));
      expect(saved.status).toBe(422);
      expect(await ssoProviderView()).toBeNull();
    }
    expect(thief.requests).toEqual([]);
  });

  it.skipIf(driver.skip)("a token endpoint on another server is refused unless the admin confirms that server", async () => {
    idp.setDiscovery({ token_endpoint: `${thief.url}/token` });
    const refused = await rejection(testDiscovery(idp.issuer));
    expect(refused.status).toBe(422);
    expect(refused.message).toContain(`another server (${thief.url})`);
    expect((await rejection(saveSsoProvider(actor, settings()))).status).toBe(422);
    expect(await ssoProviderView()).toBeNull();
    // The admin confirms the token server (some providers keep it apart, e.g. Google's).
    expect((await testDiscovery(idp.issuer, thief.url)).tokenEndpoint).toBe(`${thief.url}/token`);
    expect(thief.requests).toEqual([]);
  });

  it.skipIf(driver.skip)(
    "a document that changes after saving to name another server's token endpoint never gets the client secret sent there at sign-in",
    async () => {
      await saveSsoProvider(actor, settings());
      const thiefPort = new URL(thief.url).port;
      for (const tokenEndpoint of [`${thief.url}/token`, `http://0.0.0.0:${thiefPort}/token`]) {
        idp.setDiscovery({ token_endpoint: tokenEndpoint });
        forgetAuth(); // a restart: the provider is built again from the issuer's current document
        const browser = new Browser(await getAuth());
        const started = await browser.startSignIn();
        if (started.url) await browser.callback(await loginAtProvider(started.url, "eve", "pw-eve"));
        expect(thief.requests.map((r) => r.headers.authorization ?? r.body)).toEqual([]);
        expect(started.res.status).toBe(422);
        expect(browser.signedIn()).toBe(false);
      }
      // With the issuer's own document back, sign-in works again.
      idp.setDiscovery({});
      forgetAuth();
      const browser = new Browser(await getAuth());
      const { url } = await browser.startSignIn();
      const res = await browser.callback(await loginAtProvider(url!, "eve", "pw-eve"));
      expect(res.headers.get("location")).toBe("/chat");
      expect(browser.signedIn()).toBe(true);
    },
  );
});
