// Admin → Sign-in's server actions, called as the browser calls them (a real session cookie in the
// request headers): only admins of the first team may see or change single sign-on; a signed-out
// caller, a member and the admin of a later team are refused before anything is fetched or stored.
// Bad input is a 4xx with the field named.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let requestHeaders = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({ get: () => undefined }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

import { signUp } from "@/lib/auth/accounts";
import { db } from "@/lib/db/client";
import { ssoProviderView } from "@/lib/identity/sso-provider";
import { startOidcProvider, type RunningOidcProvider } from "@/test/support/oidc-provider";
import { APP_BASE, signedInCookie } from "@/test/support/sso-flow";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import {
  addGroupRuleAction,
  removeGroupRuleAction,
  removeSsoProviderAction,
  saveSsoProviderAction,
  setPasswordSignInAction,
  testDiscoveryAction,
} from "./actions";

const PASSWORD = "correct horse battery staple 42";
const driver = DRIVERS[0];

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

async function sessionOf(email: string): Promise<Headers> {
  return new Headers({ cookie: await signedInCookie(email, PASSWORD), origin: APP_BASE });
}

describe("Admin → Sign-in actions", () => {
  let stop: () => Promise<void>;
  let idp: RunningOidcProvider;
  const as: Record<"firstAdmin" | "member" | "laterAdmin", Headers> = {} as never;
  let firstTeam = "";
  const initial = { ok: false };
  const provider = () =>
    form({ name: "Acme ID", issuer: idp.issuer, clientId: "parley", clientSecret: "s3cret value", scopes: "email", groupsClaim: "groups" });

  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    idp = await startOidcProvider({
      clients: [{ clientId: "parley", clientSecret: "s3cret value", redirectUris: [`${APP_BASE}/api/auth/callback/sso`] }],
      users: [],
    });
    const prisma = await db();
    const ids: Record<string, string> = {};
    for (const who of ["firstAdmin", "member", "laterAdmin"]) {
      ids[who] = (await signUp({ name: who, email: `${who.toLowerCase()}@example.com`, password: PASSWORD }, new Headers())).userId;
    }
    firstTeam = (await prisma.team.create({ data: { name: "First" } })).id;
    await prisma.membership.createMany({
      data: [
        { teamId: firstTeam, userId: ids.firstAdmin, role: "admin" },
        { teamId: firstTeam, userId: ids.member, role: "member" },
      ],
    });
    const later = await prisma.team.create({ data: { name: "Later" } });
    await prisma.membership.create({ data: { teamId: later.id, userId: ids.laterAdmin, role: "admin" } });
    for (const who of Object.keys(ids) as (keyof typeof as)[]) as[who] = await sessionOf(`${who.toLowerCase()}@example.com`);
  }, 180_000);
  afterAll(async () => {
    await idp?.stop();
    await stop?.();
  });

  it("refuses a signed-out caller (401), a member and a later team's admin (403), before fetching or storing anything", async () => {
    const cases: [Headers, number][] = [
      [new Headers(), 401],
      [as.member, 403],
      [as.laterAdmin, 403],
    ];
    for (const [h, status] of cases) {
      requestHeaders = h;
      const before = idp.requests.length;
      expect((await testDiscoveryAction(initial, provider())).status).toBe(status);
      expect((await saveSsoProviderAction(initial, provider())).status).toBe(status);
      expect((await setPasswordSignInAction(initial, form({ password: "off" }))).status).toBe(status);
      expect((await addGroupRuleAction(initial, form({ group: "eng", teamId: firstTeam, role: "admin" }))).status).toBe(status);
      expect((await removeSsoProviderAction(initial, form({}))).status).toBe(status);
      expect(idp.requests.length).toBe(before);
    }
    expect(await ssoProviderView()).toBeNull();
    expect(await (await db()).ssoRule.count()).toBe(0);
  });

  it("lets the first team's admin test, save and add a rule; the answers never carry the secret", async () => {
    requestHeaders = as.firstAdmin;
    const tested = await testDiscoveryAction(initial, provider());
    expect(tested).toMatchObject({ ok: true });
    expect(tested.message).toContain(`Found the OpenID provider ${idp.issuer}`);
    const saved = await saveSsoProviderAction(initial, provider());
    expect(saved).toMatchObject({ ok: true });
    expect(JSON.stringify(saved)).not.toContain("s3cret value");
    expect(await ssoProviderView()).toMatchObject({ name: "Acme ID", secretSet: true });
    expect(await addGroupRuleAction(initial, form({ group: "eng", teamId: firstTeam, role: "admin" }))).toMatchObject({ ok: true });
    const rule = await (await db()).ssoRule.findFirstOrThrow();
    requestHeaders = as.laterAdmin;
    expect((await removeGroupRuleAction(initial, form({ ruleId: rule.id }))).status).toBe(403);
    expect(await (await db()).ssoRule.count()).toBe(1);
  });

  it("answers bad input with a 4xx naming the field, and keeps what was stored", async () => {
    requestHeaders = as.firstAdmin;
    const before = await ssoProviderView();
    const refusedSecret = await saveSsoProviderAction(
      initial,
      form({ name: "Acme\u0000", issuer: idp.issuer, clientId: "parley", clientSecret: "other secret", scopes: "", groupsClaim: "groups" }),
    );
    expect(refusedSecret.status).toBe(400);
    expect(JSON.stringify(refusedSecret)).not.toContain("other secret");
    const badIssuer = await saveSsoProviderAction(
      initial,
      form({ name: "Acme", issuer: "javascript:alert(1)", clientId: "parley", scopes: "", groupsClaim: "groups" }),
    );
    expect(badIssuer.status).toBe(400);
    expect(badIssuer.fields?.issuer).toMatch(/issuer's http\(s\) URL/);
    const badClaim = await saveSsoProviderAction(
      initial,
      form({ name: "Acme", issuer: idp.issuer, clientId: "parley", scopes: "", groupsClaim: "a claim with spaces" }),
    );
    expect(badClaim.fields?.groupsClaim).toBeTruthy();
    expect((await addGroupRuleAction(initial, form({ group: "eng", teamId: "no-such-team", role: "admin" }))).status).toBe(404);
    expect((await addGroupRuleAction(initial, form({ group: "eng", teamId: firstTeam, role: "owner" }))).status).toBe(400);
    expect((await removeGroupRuleAction(initial, form({ ruleId: "../../etc" }))).status).toBe(400);
    expect((await setPasswordSignInAction(initial, form({ password: "maybe" }))).status).toBe(400);
    // Turning password sign-in off without having signed in through the provider: refused, stays on.
    const lockout = await setPasswordSignInAction(initial, form({ password: "off" }));
    expect(lockout.status).toBe(409);
    expect(await ssoProviderView()).toEqual(before);
  });
});
