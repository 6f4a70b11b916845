// Which Parley account a single sign-on lands in, against a real OpenID provider (oidc-provider on
// loopback) and a real database, through better-auth's handler as a browser drives it. A provider
// user whose (verified) email matches an existing password account is not signed in to it: the owner
// proves the account with its password and then links the provider. Emails are matched exactly (no
// case folding), an admin can trust the provider for email domains, group rules leave memberships the
// provider did not grant, and every link and unlink is in the audit log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuth } from "../auth/auth";
import { signUp, unlinkSso } from "../auth/accounts";
import { db } from "../db/client";
import { startOidcProvider, type RunningOidcProvider } from "../../test/support/oidc-provider";
import { APP_BASE, Browser, loginAtProvider } from "../../test/support/sso-flow";
import { DRIVERS, rejection, startTestApp } from "../../test/support/test-app";
import { addGroupRule } from "./group-rules";
import { ssoErrorMessage } from "./sign-in-errors";
import { saveSsoProvider, ssoProviderSchema } from "./sso-provider";

const PASSWORD = "correct horse battery staple 42";
const CLIENT = { clientId: "parley", clientSecret: "a client secret only the provider and Parley know" };
const LINK_MESSAGE = "An account with this email exists: sign in with your password to link single sign-on.";

async function user(email: string) {
  const prisma = await db();
  return prisma.user.findUnique({ where: { email }, include: { memberships: true, sessions: true, accounts: true } });
}

async function ssoAccounts(email: string) {
  return ((await user(email))?.accounts ?? []).filter((a) => a.providerId === "sso");
}

async function roleIn(email: string, teamId: string) {
  return (await user(email))?.memberships.find((m) => m.teamId === teamId)?.role ?? null;
}

async function events(action: string, targetId: string) {
  const prisma = await db();
  return prisma.auditEvent.findMany({ where: { action, targetId }, orderBy: { createdAt: "asc" } });
}

/** A whole single sign-on as the provider's user `sub`. */
async function signInAs(sub: string) {
  const browser = new Browser(await getAuth());
  const { url } = await browser.startSignIn();
  const res = await browser.callback(await loginAtProvider(url!, sub, "pw-" + sub));
  return { res, browser, location: res.headers.get("location") ?? "" };
}

/** The error code a failed sign-in sends the person back with. */
const errorOf = (location: string) => new URL(location, APP_BASE).searchParams.get("error") ?? undefined;

describe.each(DRIVERS)("linking single sign-on to existing accounts on $name", (driver) => {
  let stop: () => Promise<void>;
  let idp: RunningOidcProvider;
  let first: string;
  let engineering: string;
  let bobsTeam: string;
  let actor: { user: { id: string }; team: { id: string } };

  const idpUser = (sub: string, email: string, groups: string[], emailVerified = true) => ({
    sub,
    password: "pw-" + sub,
    email,
    name: sub,
    groups,
    emailVerified,
  });

  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
    idp = await startOidcProvider({
      clients: [{ ...CLIENT, redirectUris: [`${APP_BASE}/api/auth/callback/sso`] }],
      users: [
        idpUser("idp-bob", "bob@example.com", ["eng"]),
        idpUser("idp-mallory", "ADA@Example.com", ["first-admins"]),
        idpUser("idp-carol", "carol@trusted.test", []),
        idpUser("idp-dave", "dave@trusted.test", [], false),
        idpUser("idp-newbie", "newbie@example.com", ["eng"]),
      ],
    });
    const prisma = await db();
    const ada = (await signUp({ name: "Ada", email: "ada@example.com", password: PASSWORD }, new Headers())).userId;
    const bob = (await signUp({ name: "Bob", email: "bob@example.com", password: PASSWORD }, new Headers())).userId;
    await signUp({ name: "Carol", email: "carol@trusted.test", password: PASSWORD }, new Headers());
    await signUp({ name: "Dave", email: "dave@trusted.test", password: PASSWORD }, new Headers());
    first = (await prisma.team.create({ data: { name: "First", memberships: { create: { userId: ada, role: "admin" } } } })).id;
    engineering = (await prisma.team.create({ data: { name: "Engineering" } })).id;
    bobsTeam = (await prisma.team.create({ data: { name: "Bob's team", memberships: { create: { userId: bob, role: "member" } } } })).id;
    actor = { user: { id: ada }, team: { id: first } };
    await saveSsoProvider(
      actor,
      ssoProviderSchema.parse({
        name: "Acme ID",
        issuer: idp.issuer,
        ...CLIENT,
        scopes: "email profile groups",
        groupsClaim: "groups",
        trustedDomains: "trusted.test",
      }),
    );
    await addGroupRule(actor, { group: "first-admins", teamId: first, role: "admin" });
    await addGroupRule(actor, { group: "eng", teamId: engineering, role: "member" });
    // Bob's team is managed by a rule his provider groups do not name: a sync would take him out of it.
    await addGroupRule(actor, { group: "bobs-team", teamId: bobsTeam, role: "member" });
  });
  afterAll(async () => {
    await idp?.stop();
    await stop?.();
  });

  it.skipIf(driver.skip)("a provider user with Bob's verified email is not signed in to Bob's password account, and Bob keeps his team", async () => {
    const sessions = (await user("bob@example.com"))!.sessions.length;
    const { res, browser, location } = await signInAs("idp-bob");
    expect(res.status).toBe(302);
    expect(location).toMatch(/^\/sign-in\?error=/);
    expect(ssoErrorMessage(errorOf(location))).toBe(LINK_MESSAGE);
    expect(browser.signedIn()).toBe(false);
    expect((await user("bob@example.com"))?.sessions).toHaveLength(sessions);
    expect(await ssoAccounts("bob@example.com")).toHaveLength(0);
    expect(await roleIn("bob@example.com", bobsTeam)).toBe("member");
    expect(await roleIn("bob@example.com", engineering)).toBeNull();
  });

  it.skipIf(driver.skip)("ADA@Example.com at the provider is never signed in to ada@example.com (no case folding), even for a trusted domain", async () => {
    const sessions = (await user("ada@example.com"))!.sessions.length;
    const { browser, location } = await signInAs("idp-mallory");
    expect(location).toMatch(/^\/sign-in\?error=/);
    expect(browser.signedIn()).toBe(false);
    expect((await user("ada@example.com"))?.sessions).toHaveLength(sessions);
    expect(await ssoAccounts("ada@example.com")).toHaveLength(0);
    expect(await roleIn("ada@example.com", first)).toBe("admin");
    const prisma = await db();
    expect(await prisma.user.count()).toBe(4);
  });

  it.skipIf(driver.skip)(
    "after signing in with his password Bob links single sign-on; then it signs him in, and group rules leave the memberships the provider did not grant",
    async () => {
      const browser = new Browser(await getAuth());
      expect((await browser.passwordSignIn("bob@example.com", PASSWORD)).status).toBe(200);
      const { url } = await browser.startLink("/profile");
      expect(url).toBeTruthy();
      const linked = await browser.callback(await loginAtProvider(url!, "idp-bob", "pw-idp-bob"));
      expect(linked.headers.get("location")).toBe("/profile");
      const bob = await user("bob@example.com");
      expect(await ssoAccounts("bob@example.com")).toMatchObject([{ accountId: "idp-bob" }]);
      expect(await events("sso.link", bob!.id)).toMatchObject([{ actorId: bob!.id, teamId: first, data: { how: "signed-in", subject: "idp-bob" } }]);

      const again = await signInAs("idp-bob");
      expect(again.location).toBe("/chat");
      expect(again.browser.signedIn()).toBe(true);
      // The provider grants Engineering; Bob's own team (managed by a rule his groups miss) stays.
      expect(await roleIn("bob@example.com", engineering)).toBe("member");
      expect(await roleIn("bob@example.com", bobsTeam)).toBe("member");
      idp.setGroups("idp-bob", []);
      await signInAs("idp-bob");
      expect(await roleIn("bob@example.com", engineering)).toBeNull();
      expect(await roleIn("bob@example.com", bobsTeam)).toBe("member");
      const changes = await events("sso.membership", bob!.id);
      expect(changes.map((e) => [e.teamId, e.data])).toEqual([
        [engineering, { from: null, to: "member" }],
        [engineering, { from: "member", to: null }],
      ]);
    },
  );

  it.skipIf(driver.skip)("unlinking single sign-on is in the audit log, and the provider user is a stranger again", async () => {
    const browser = new Browser(await getAuth());
    await browser.passwordSignIn("bob@example.com", PASSWORD);
    const [linked] = await ssoAccounts("bob@example.com");
    const res = await browser.request("/api/auth/unlink-account", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ accountId: linked.id }),
    });
    expect(res.status).toBe(200);
    const bob = await user("bob@example.com");
    expect(await ssoAccounts("bob@example.com")).toHaveLength(0);
    expect(await events("sso.unlink", bob!.id)).toMatchObject([{ actorId: bob!.id, teamId: first, data: { subject: "idp-bob" } }]);
    const { location } = await signInAs("idp-bob");
    expect(errorOf(location)).toBeTruthy();
  });

  it.skipIf(driver.skip)(
    "when an admin trusts the provider for a domain, a verified address there links at the first sign-in (audited); an unverified one does not",
    async () => {
      const carol = await signInAs("idp-carol");
      expect(carol.location).toBe("/chat");
      const row = await user("carol@trusted.test");
      expect(await ssoAccounts("carol@trusted.test")).toMatchObject([{ accountId: "idp-carol" }]);
      expect(await events("sso.link", row!.id)).toMatchObject([{ teamId: first, data: { how: "trusted-domain", subject: "idp-carol" } }]);

      const dave = await signInAs("idp-dave");
      expect(dave.location).toMatch(/^\/sign-in\?error=/);
      expect(await ssoAccounts("dave@trusted.test")).toHaveLength(0);
    },
  );

  it.skipIf(driver.skip)("a new person from the provider gets an account of their own; its link is audited", async () => {
    const { location } = await signInAs("idp-newbie");
    expect(location).toBe("/chat");
    const row = await user("newbie@example.com");
    expect(await roleIn("newbie@example.com", engineering)).toBe("member");
    expect(await events("sso.link", row!.id)).toMatchObject([{ teamId: first, data: { how: "new-account", subject: "idp-newbie" } }]);
  });

  it.skipIf(driver.skip)("an account made by single sign-on cannot unlink its only way in", async () => {
    const newbie = await user("newbie@example.com");
    const refused = await rejection(unlinkSso(newbie!.id, new Headers()));
    expect(refused.status).toBe(409);
    expect(await ssoAccounts("newbie@example.com")).toHaveLength(1);
  });

  it.skipIf(driver.skip)("an admin can let the group rules manage every membership, then a membership an admin made follows the groups too", async () => {
    const prisma = await db();
    const carol = await user("carol@trusted.test");
    await prisma.membership.create({ data: { teamId: engineering, userId: carol!.id, role: "member" } });
    await signInAs("idp-carol");
    expect(await roleIn("carol@trusted.test", engineering)).toBe("member");
    await saveSsoProvider(
      actor,
      ssoProviderSchema.parse({
        name: "Acme ID",
        issuer: idp.issuer,
        clientId: CLIENT.clientId,
        scopes: "email profile groups",
        trustedDomains: "trusted.test",
        rulesManageAll: "on",
      }),
    );
    await signInAs("idp-carol");
    expect(await roleIn("carol@trusted.test", engineering)).toBeNull();
    expect(await events("sso.membership", carol!.id)).toMatchObject([{ teamId: engineering, data: { from: "member", to: null } }]);
  });
});
