// Single sign-on against a real OpenID provider (oidc-provider on loopback) and a real database,
// through better-auth's own handler as a browser drives it: the first sign-in makes the account with
// the role its groups map to, roles follow the claims at every sign-in (never taking a team's last
// admin), and each bad input is a clear refusal that stores no account and no session: a wrong
// issuer, a provider that is down, a state mismatch, a PKCE mismatch, a replayed callback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "../auth/auth";
import { signIn, signUp } from "../auth/accounts";
import { db } from "../db/client";
import { startOidcProvider, type RunningOidcProvider } from "../../test/support/oidc-provider";
import { APP_BASE, Browser, loginAtProvider } from "../../test/support/sso-flow";
import { DRIVERS, rejection, startTestApp } from "../../test/support/test-app";
import { freePort } from "../../test/support/test-servers";
import { addGroupRule } from "./group-rules";
import { removeSsoProvider, setPasswordSignIn, signInMethods } from "./sign-in-methods";
import { saveSsoProvider, ssoProviderSchema, ssoProviderView, testDiscovery } from "./sso-provider";

const PASSWORD = "correct horse battery staple 42";
const CLIENT = { clientId: "parley", clientSecret: "a client secret only the provider and Parley know" };

async function userByEmail(email: string) {
  const prisma = await db();
  return prisma.user.findUnique({ where: { email }, include: { memberships: true, sessions: true } });
}

async function roleIn(email: string, teamId: string) {
  return (await userByEmail(email))?.memberships.find((m) => m.teamId === teamId)?.role ?? null;
}

/** A whole sign-in as `username`: the callback's response and the browser. */
async function signInAs(username: string) {
  const browser = new Browser(await getAuth());
  const { url } = await browser.startSignIn();
  const back = await loginAtProvider(url!, username, "pw-" + username);
  const res = await browser.callback(back);
  return { res, browser, back };
}

describe.each(DRIVERS)("single sign-on on $name", (driver) => {
  let stop: () => Promise<void>;
  let idp: RunningOidcProvider;
  let engineering: string;
  let solo: string;
  let admin: { id: string; email: string };

  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
    idp = await startOidcProvider({
      clients: [{ ...CLIENT, redirectUris: [`${APP_BASE}/api/auth/callback/sso`] }],
      users: [
        { sub: "ada", password: "pw-ada", email: "ada@example.com", name: "Ada", groups: ["eng-admins"] },
        { sub: "bob", password: "pw-bob", email: "bob@example.com", name: "Bob", groups: ["solo-admins"] },
        { sub: "eve", password: "pw-eve", email: "eve@example.com", name: "Eve", groups: ["eng"] },
        { sub: "root", password: "pw-root", email: "root@example.com", name: "Root", groups: [] },
      ],
    });
    const prisma = await db();
    const { userId } = await signUp({ name: "Root", email: "root@example.com", password: PASSWORD }, new Headers());
    admin = { id: userId, email: "root@example.com" };
    engineering = (await prisma.team.create({ data: { name: "Engineering", memberships: { create: { userId, role: "admin" } } } })).id;
    solo = (await prisma.team.create({ data: { name: "Solo" } })).id;
    const actor = { user: { id: userId }, team: { id: engineering } };
    await saveSsoProvider(
      actor,
      ssoProviderSchema.parse({ name: "Acme ID", issuer: idp.issuer, ...CLIENT, scopes: "email profile groups", groupsClaim: "groups" }),
    );
    await addGroupRule(actor, { group: "eng-admins", teamId: engineering, role: "admin" });
    await addGroupRule(actor, { group: "eng", teamId: engineering, role: "member" });
    await addGroupRule(actor, { group: "solo-admins", teamId: solo, role: "admin" });
  });
  afterAll(async () => {
    await idp?.stop();
    await stop?.();
  });

  it.skipIf(driver.skip)("the first sign-in makes the account with the mapped role; the role follows the groups at every sign-in", async () => {
    const first = await signInAs("ada");
    expect(first.res.status).toBe(302);
    expect(first.res.headers.get("location")).toBe("/chat");
    expect(first.browser.signedIn()).toBe(true);
    expect(await roleIn("ada@example.com", engineering)).toBe("admin");
    expect(idp.requests).toContain("/token");

    idp.setGroups("ada", ["eng"]);
    await signInAs("ada");
    expect(await roleIn("ada@example.com", engineering)).toBe("member");

    idp.setGroups("ada", ["eng", "eng-admins"]);
    await signInAs("ada");
    expect(await roleIn("ada@example.com", engineering)).toBe("admin");

    idp.setGroups("ada", []);
    await signInAs("ada");
    expect(await roleIn("ada@example.com", engineering)).toBeNull();
    expect(await userByEmail("ada@example.com")).not.toBeNull();
  });

  it.skipIf(driver.skip)("a claim never takes away a team's last admin; the kept role is recorded", async () => {
    await signInAs("bob");
    expect(await roleIn("bob@example.com", solo)).toBe("admin");
    idp.setGroups("bob", []);
    await signInAs("bob");
    expect(await roleIn("bob@example.com", solo)).toBe("admin");
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { teamId: solo, action: "sso.membership.kept" } })).toBe(1);
  });

  it.skipIf(driver.skip)("a callback in another browser than the one that started (state mismatch) is refused and stores nothing", async () => {
    const starter = new Browser(await getAuth());
    const { url } = await starter.startSignIn();
    const back = await loginAtProvider(url!, "eve", "pw-eve");
    const other = new Browser(await getAuth());
    const res = await other.callback(back);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^\/sign-in\?error=state_/);
    expect(other.signedIn()).toBe(false);
    expect(await userByEmail("eve@example.com")).toBeNull();
  });

  it.skipIf(driver.skip)("a code issued for another sign-in (PKCE mismatch) is refused at the provider and stores nothing", async () => {
    const a = new Browser(await getAuth());
    const b = new Browser(await getAuth());
    const started = await a.startSignIn();
    const other = await b.startSignIn();
    const backA = new URL(await loginAtProvider(started.url!, "eve", "pw-eve"));
    // Browser b presents a's code with its own (valid) state: its PKCE verifier does not match a's challenge.
    backA.searchParams.set("state", new URL(other.url!).searchParams.get("state")!);
    const res = await b.callback(backA.href);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/sign-in?error=invalid_code");
    expect(b.signedIn()).toBe(false);
    expect(await userByEmail("eve@example.com")).toBeNull();
  });

  it.skipIf(driver.skip)("a replayed callback is refused and makes no second session", async () => {
    const { res, browser, back } = await signInAs("eve");
    expect(res.headers.get("location")).toBe("/chat");
    const eve = await userByEmail("eve@example.com");
    expect(eve?.sessions).toHaveLength(1);
    expect(await roleIn("eve@example.com", engineering)).toBe("member");
    const again = await browser.callback(back);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toMatch(/^\/sign-in\?error=/);
    const replayer = new Browser(await getAuth());
    const replayed = await replayer.callback(back);
    expect(replayed.headers.get("location")).toMatch(/^\/sign-in\?error=/);
    expect(replayer.signedIn()).toBe(false);
    expect((await userByEmail("eve@example.com"))?.sessions).toHaveLength(1);
  });

  it.skipIf(driver.skip)("discovery of a wrong issuer, a mismatched issuer or a provider that is down is a clear 4xx, and nothing is saved", async () => {
    const before = await ssoProviderView();
    const wrong = await rejection(testDiscovery(`${idp.issuer}/not-here`));
    expect(wrong.status).toBe(422);
    expect(wrong.message).toMatch(/No discovery document/);
    // The same provider under another name: its document names 127.0.0.1, not localhost.
    const mismatch = await rejection(testDiscovery(idp.issuer.replace("127.0.0.1", "localhost")));
    expect(mismatch.status).toBe(422);
    expect(mismatch.message).toMatch(/Issuer mismatch/);
    const down = `http://127.0.0.1:${await freePort()}`;
    const unreachable = await rejection(testDiscovery(down));
    expect(unreachable.status).toBe(422);
    expect(unreachable.message).toMatch(/cannot be reached/);
    const actor = { user: { id: admin.id }, team: { id: engineering } };
    const save = await rejection(
      saveSsoProvider(actor, ssoProviderSchema.parse({ name: "Down", issuer: down, clientId: "x", scopes: "", groupsClaim: "groups" })),
    );
    expect(save.status).toBe(422);
    expect(await ssoProviderView()).toEqual(before);
    expect((await testDiscovery(idp.issuer)).tokenEndpoint).toBe(`${idp.issuer}/token`);
  });

  it.skipIf(driver.skip)("the admin view never holds the client secret", async () => {
    const view = await ssoProviderView();
    expect(view).toMatchObject({ name: "Acme ID", issuer: idp.issuer, clientId: "parley", secretSet: true });
    expect(JSON.stringify(view)).not.toContain(CLIENT.clientSecret);
    const prisma = await db();
    const row = await prisma.ssoProvider.findFirst();
    expect(row?.clientSecretEnc).toBeTruthy();
    expect(row?.clientSecretEnc).not.toContain(CLIENT.clientSecret);
  });

  it.skipIf(driver.skip)("password sign-in goes off only for an admin who can sign in with single sign-on, and comes back when it is removed", async () => {
    const actor = { user: { id: admin.id }, team: { id: engineering } };
    const refused = await rejection(setPasswordSignIn(actor, false));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/Sign in once with single sign-on/);
    idp.setGroups("root", []);
    // The same verified email alone does not join the existing admin's account: they link it signed in.
    const refusedSso = await signInAs("root");
    expect(refusedSso.res.headers.get("location")).toMatch(/^\/sign-in\?error=link_required/);
    const browser = new Browser(await getAuth());
    await browser.passwordSignIn("root@example.com", PASSWORD);
    const { url } = await browser.startLink("/profile");
    expect((await browser.callback(await loginAtProvider(url!, "root", "pw-root"))).headers.get("location")).toBe("/profile");
    await signInAs("root");
    expect(await roleIn("root@example.com", engineering)).toBe("admin");
    await setPasswordSignIn(actor, false);
    expect(await signInMethods()).toEqual({ password: false, sso: { name: "Acme ID" } });
    const off = await rejection(signIn({ email: "root@example.com", password: PASSWORD }, new Headers()));
    expect(off.status).toBe(403);
    // The operator's way back in when the provider is down: the variable opens password sign-in.
    process.env.PARLEY_FORCE_PASSWORD_SIGN_IN = "1";
    try {
      await signIn({ email: "root@example.com", password: PASSWORD }, new Headers());
    } finally {
      delete process.env.PARLEY_FORCE_PASSWORD_SIGN_IN;
    }
    expect((await rejection(signIn({ email: "root@example.com", password: PASSWORD }, new Headers()))).status).toBe(403);
    await removeSsoProvider(actor);
    expect(await signInMethods()).toEqual({ password: true, sso: null });
    await signIn({ email: "root@example.com", password: PASSWORD }, new Headers());
    // Without a provider, starting single sign-on is a clear 404.
    const { res } = await new Browser(await getAuth()).startSignIn();
    expect(res.status).toBe(404);
  });
});
