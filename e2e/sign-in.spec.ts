// Signing out and in; a wrong password or unknown email gets the same message (no hint which).
import { expect, test } from "@playwright/test";
import { ADMIN, ADMIN_STATE, signIn } from "./helpers";

test.describe("signed in as the admin", () => {
  test.use({ storageState: ADMIN_STATE });

  test("sign out, then sign back in", async ({ page }) => {
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
