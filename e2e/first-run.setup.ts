// First run on an empty installation: the first visit leads to creating the admin and naming the team.
// Bad input is refused with a clear message and writes nothing.
import { expect, test } from "@playwright/test";
import { THEMES, applyTheme, violations } from "./axe";
import { ADMIN, ADMIN_STATE } from "./helpers";

test("first visit creates the admin and the team; bad input is refused", async ({ page, request }) => {
  // The first pages of a new server, checked with axe in both themes and then filled in: more than 30 s
  // on a busy machine.
  test.setTimeout(60_000);
  await page.goto("/");
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole("heading", { name: "Welcome to Parley" })).toBeVisible();
  // The setup page exists only now: no serious accessibility violation, in light and dark.
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await page.reload();
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    expect(await violations(page)).toEqual([]);
  }
  await page.context().clearCookies({ name: "parley_theme" });
  await page.reload();

  // Empty fields, malformed email, too-short password, over-long team name: field errors, nothing saved.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  // The browser stops typing at 80 characters; a client that ignores maxlength is refused by the server.
  await page.getByLabel("Team name").evaluate((el) => el.removeAttribute("maxlength"));
  await page.getByLabel("Team name").fill("x".repeat(81));
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await expect(page.getByText("Enter a name.")).toBeVisible();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  await expect(page.getByText("At least 8 characters.", { exact: true })).toBeVisible();
  await expect(page.getByText("At most 80 characters.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("not-an-email"); // what was typed is kept
  // Nothing was written: the installation still needs setup.
  await page.goto("/sign-in");
  await expect(page).toHaveURL(/\/setup$/);

  await page.getByLabel("Your name").fill(ADMIN.name);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByLabel("Team name").fill(ADMIN.team);
  await page.getByRole("button", { name: "Create admin and team" }).click();
  // Creating the account hashes its password and makes the team: slow on a busy machine.
  await expect(page).toHaveURL(/\/chat$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: ADMIN.team })).toBeVisible();
  await expect(page.getByLabel("Team", { exact: true })).toHaveAttribute("data-value", /.+/);

  // Setup is closed from now on, in the browser and for a direct sign-up request.
  await page.goto("/setup");
  await expect(page).not.toHaveURL(/\/setup$/);
  const signUp = await request.post("/api/auth/sign-up/email", {
    data: { name: "Mallory", email: "mallory@example.com", password: "mallory-password" },
  });
  expect(signUp.status()).toBe(403);

  const health = await (await request.get("/api/health")).json();
  expect(health).toMatchObject({ ok: true, database: "pglite" });
  expect(health.migrations.length).toBeGreaterThan(0);

  await page.context().storageState({ path: ADMIN_STATE });
});
