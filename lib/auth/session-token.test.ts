// The one-query session check of POST /api/chat accepts exactly the cookies better-auth accepts: a real
// session cookie, and nothing forged, tampered with, expired or signed out.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DRIVERS, startTestApp } from "../../test/support/test-app";
import { getAuth } from "./auth";
import { sessionWithTeams } from "../teams/session-teams";
import { sessionUser } from "./session";
import { cookieValue, verifiedToken } from "./session-token";

// Start-up builds better-auth on the database it opens; one database per file is enough here
// (PostgreSQL when the tests have one).
const driver = DRIVERS.filter((d) => !d.skip).at(-1)!;

describe(`session from the cookie (${driver.name})`, () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  });
  afterAll(() => stop?.());

  let seq = 0;
  /** A user signed up through better-auth, a member of two teams, and their session cookie as the browser sends it. */
  async function signedInUser() {
    const auth = await getAuth();
    const email = `fast-${Date.now()}-${seq++}@example.com`;
    const res = await auth.api.signUpEmail({ body: { name: "Fast", email, password: "a long enough password" }, asResponse: true });
    expect(res.status).toBe(200);
    const setCookie = res.headers.getSetCookie().find((c) => c.includes("session_token="))!;
    const [pair] = setCookie.split(";");
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email } });
    const first = await prisma.team.create({ data: { name: "First" } });
    const second = await prisma.team.create({ data: { name: "Second" } });
    await prisma.membership.create({ data: { teamId: first.id, userId: user.id, role: "admin" } });
    await prisma.membership.create({ data: { teamId: second.id, userId: user.id, role: "member" } });
    const name = pair.slice(0, pair.indexOf("="));
    const value = decodeURIComponent(pair.slice(pair.indexOf("=") + 1));
    return { user, first, second, name, value, cookie: `theme=dark; ${pair}` };
  }

  /** What better-auth's getSession and the one-query check say of the same Cookie header. */
  async function both(cookie: string | undefined) {
    const headers = new Headers(cookie === undefined ? {} : { cookie });
    const auth = await getAuth();
    const theirs = await auth.api.getSession({ headers, query: { disableRefresh: true } });
    const ours = await sessionWithTeams(headers);
    return { theirs: theirs?.user.id ?? null, ours: ours?.user.id ?? null, teams: ours?.teams };
  }

  it("a real session cookie gives its user and their teams, oldest membership first", async () => {
    const { user, first, second, cookie } = await signedInUser();
    const { theirs, ours, teams } = await both(cookie);
    expect(theirs).toBe(user.id);
    expect(ours).toBe(user.id);
    expect(teams).toEqual([
      { id: first.id, name: "First", role: "admin" },
      { id: second.id, name: "Second", role: "member" },
    ]);
  });

  it("refuses what better-auth refuses: no cookie, a tampered token or signature, an unsigned token, another name", async () => {
    const { name, value } = await signedInUser();
    const dot = value.lastIndexOf(".");
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const cases = [
      undefined,
      "",
      `${name}=${encodeURIComponent(`${flip(token, 3)}.${signature}`)}`,
      `${name}=${encodeURIComponent(`${token}.${flip(signature, 5)}`)}`,
      `${name}=${encodeURIComponent(token)}`,
      `${name}=${encodeURIComponent(`${token}.`)}`,
      `other_${name}=${encodeURIComponent(value)}`,
    ];
    for (const cookie of cases) expect(await both(cookie), String(cookie)).toMatchObject({ theirs: null, ours: null });
  });

  it("asks better-auth once per request: the same request's headers get the same answer", async () => {
    const { user, cookie } = await signedInUser();
    const request = new Headers({ cookie });
    const first = sessionUser(request);
    expect(sessionUser(request)).toBe(first);
    expect((await first)?.id).toBe(user.id);
    const another = sessionUser(new Headers({ cookie }));
    expect(another).not.toBe(first);
    expect((await another)?.id).toBe(user.id);
    expect(await sessionUser(new Headers())).toBeNull();
  });

  it("refuses an expired session and a signed-out one", async () => {
    const prisma = await db();
    const expired = await signedInUser();
    await prisma.session.updateMany({ where: { userId: expired.user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await both(expired.cookie)).toMatchObject({ theirs: null, ours: null });

    const signedOut = await signedInUser();
    expect((await both(signedOut.cookie)).ours).toBe(signedOut.user.id);
    const auth = await getAuth();
    await auth.api.signOut({ headers: new Headers({ cookie: signedOut.cookie }) });
    expect(await both(signedOut.cookie)).toMatchObject({ theirs: null, ours: null });
  });
});

describe("cookie parsing and signatures", () => {
  it("reads the first cookie of a name, decoded", () => {
    expect(cookieValue("a=1; b=x%2Ey; b=2", "b")).toBe("x.y");
    expect(cookieValue('a="quoted%20value"', "a")).toBe("quoted value");
    expect(cookieValue("a=1", "b")).toBeUndefined();
    expect(cookieValue(null, "b")).toBeUndefined();
  });

  it("accepts only an HMAC-SHA256 signature by the secret", async () => {
    const crypto = await import("node:crypto");
    const sign = (token: string, secret: string) => `${token}.${crypto.createHmac("sha256", secret).update(token).digest("base64")}`;
    expect(verifiedToken(sign("tok123", "s3cret"), "s3cret")).toBe("tok123");
    expect(verifiedToken(sign("tok123", "other"), "s3cret")).toBeUndefined();
    expect(verifiedToken("tok123.short=", "s3cret")).toBeUndefined();
    expect(verifiedToken(".abc", "s3cret")).toBeUndefined();
  });
});
