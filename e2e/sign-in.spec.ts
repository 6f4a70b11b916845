// Signing out and in; a wrong password or unknown email gets the same message (no hint which); after
// signing in the browser stays on this site; password guessing is slowed by account and real address.
import http from "node:http";
import { expect, test } from "@playwright/test";
import { createTeam } from "./admin-steps";
import { ADMIN, SIGNED_OUT, createInvite, joinWithNewAccount, signIn } from "./helpers";

test.describe("signed in as the admin", () => {
  test("sign out, then sign back in", async ({ page }) => {
    // A session of its own: signing out ends that session on the server, and the stored admin
    // session (ADMIN_STATE) stays valid for the specs that run after this one.
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).not.toHaveURL(/\/sign-in/);
    await page.goto("/chat");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    // Signed out, the app sends you to sign in and back where you were going.
    await page.goto("/admin/members");
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await page.getByLabel("Email").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/admin/);
    await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
  });
});

test("wrong password and unknown email get the same message", async ({ page }) => {
  await signIn(page, ADMIN.email, "not the password");
  const wrongPassword = await page.getByRole("alert").filter({ hasText: /./ }).first().textContent();
  expect(wrongPassword).toContain("Wrong email or password.");
  await expect(page).toHaveURL(/\/sign-in/);

  await signIn(page, "nobody@example.com", "not the password");
  const unknownEmail = await page.getByRole("alert").filter({ hasText: /./ }).first().textContent();
  expect(unknownEmail).toBe(wrongPassword);
  // The email typed is kept; the password is not echoed back.
  await expect(page.getByLabel("Email")).toHaveValue("nobody@example.com");
  await expect(page.getByLabel("Password")).toHaveValue("");
});

test("signed out, API calls get 401 and pages lead to sign-in", async ({ page, request }) => {
  const res = await request.get("/api/teams/anything/members");
  expect(res.status()).toBe(401);
  // The chat route checks the session cookie itself: none, or a forged one, is refused the same way.
  const turn = { id: "any-chat", message: { role: "user", parts: [{ type: "text", text: "hello" }] } };
  expect((await request.post("/api/chat", { data: turn })).status()).toBe(401);
  const forged = `better-auth.session_token=${encodeURIComponent(`forged-token.${"A".repeat(43)}=`)}`;
  expect((await request.post("/api/chat", { data: turn, headers: { cookie: forged } })).status()).toBe(401);
  await page.goto("/chat");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fchat/);
});

test("signing in works at 127.0.0.1 as well as localhost, with no configuration", async ({ browser, baseURL }) => {
  const loopback = baseURL!.replace("localhost", "127.0.0.1");
  const context = await browser.newContext({ baseURL: loopback, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(`${loopback}/chat`);
  await expect(page.getByRole("heading", { name: ADMIN.team })).toBeVisible();
  // better-auth's own endpoints accept this origin too (sign-out over HTTP).
  const res = await page.request.post(`${loopback}/api/auth/sign-out`, { headers: { origin: loopback }, data: {} });
  expect(res.status()).toBe(200);
  await context.close();
});

test.describe("after signing in, only pages of this site", () => {
  for (const next of ["%2F%09%2Fevil.example%2Fx", "/.//evil.example/x", "%2F%5Cevil.example%2Fx", "//evil.example/x", "javascript:alert(1)"]) {
    test(`next=${next} stays on this site`, async ({ browser, baseURL }) => {
      const context = await browser.newContext(SIGNED_OUT);
      const page = await context.newPage();
      await page.goto(`/sign-in?next=${next}`);
      await page.getByLabel("Email").fill(ADMIN.email);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
      await context.close();
    });
  }
});

/** POST /api/auth/sign-in/email over a connection from `from` (a loopback address of its own), with headers of our choosing. */
function signInOverHttp(from: string, body: { email: string; password: string }, headers: Record<string, string> = {}) {
  const port = Number(process.env.E2E_PORT || 3210);
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; retryAfter: number }>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        localAddress: from,
        method: "POST",
        path: "/api/auth/sign-in/email",
        headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: Number(res.headers["retry-after"] ?? 0) }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

test.describe("password guessing", () => {
  test("200 wrong passwords with rotating X-Forwarded-For are refused after the limit; the owner still signs in", async ({ page, browser }) => {
    test.setTimeout(120_000);
    // The stored admin session was signed out above: sign in afresh to make the invite.
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/chat$/);
    // The member joins a team of this file's own (the first team's members are nobody else's business).
    await createTeam(page, "Spec sign-in");
    const { context, user } = await joinWithNewAccount(browser, await createInvite(page));
    await context.close();

    const results = [];
    const started = Date.now();
    for (let i = 0; i < 200; i++) {
      results.push(
        await signInOverHttp(
          "127.0.0.2",
          { email: user.email, password: `guess ${i}` },
          { "x-forwarded-for": `203.0.113.${i % 250}`, "x-real-ip": `198.51.100.${i % 250}` },
        ),
      );
    }
    const checked = results.filter((r) => r.status === 401).length;
    const refused = results.filter((r) => r.status === 429);
    // Five free failures, then waits of 1, 2, 4 … seconds:
    // within E seconds at most 5 + log2(E + 1) guesses are checked. Bounded by the time the loop took, so a
    // slow machine (whose waits run out while it sends) cannot make the limit look broken.
    const seconds = (Date.now() - started) / 1000;
    expect(checked).toBeLessThanOrEqual(Math.max(10, 6 + Math.floor(Math.log2(seconds + 1))));
    expect(refused).toHaveLength(200 - checked);
    for (const r of refused) expect(r.retryAfter).toBeGreaterThanOrEqual(1);
    // Claiming to be another connection does not help either: it is the same bucket. Its first guess may
    // be checked (when the current wait ran out while the loop was still sending), the one right after
    // it never is (a new connection would have five free failures).
    const spoofed: number[] = [];
    for (const password of ["one more", "and another"])
      spoofed.push((await signInOverHttp("127.0.0.2", { email: user.email, password }, { "x-parley-connection-address": "192.0.2.1" })).status);
    expect(spoofed[1]).toBe(429);

    // Another client without a proxy has its own bucket: its wrong password is checked, its right one works…
    expect((await signInOverHttp("127.0.0.3", { email: user.email, password: "a typo" })).status).toBe(401);
    expect((await signInOverHttp("127.0.0.3", { email: user.email, password: user.password })).status).toBe(200);
    // …and the owner signs in with the form while the attacker keeps going.
    const owner = await browser.newContext(SIGNED_OUT);
    const ownerPage = await owner.newPage();
    const attack = Promise.all(Array.from({ length: 30 }, (_, i) => signInOverHttp("127.0.0.2", { email: user.email, password: `more ${i}` })));
    await signIn(ownerPage, user.email, user.password);
    await expect(ownerPage).toHaveURL(/\/chat$/);
    expect((await attack).filter((r) => r.status === 200)).toHaveLength(0);
    await owner.close();
  });
});
