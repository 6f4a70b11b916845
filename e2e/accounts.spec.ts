// Accounts in Chromium against the production build: a member changes their password on the profile
// page (weak and wrong passwords refused) and signs in with the new one; an admin makes a reset link
// for a member who forgot theirs, which sets a new password once, ends the member's sessions, and
// fails the second time; a personal default model answers new chats and personal instructions reach
// the model (the scripted upstream answers differently when its system message holds them); the new
// pages pass axe in light and dark.
import { expect, test, type Browser, type Page } from "@playwright/test";
import { THEMES, applyTheme, violations } from "./axe";
import { ADMIN, SIGNED_OUT, answer, chooseOption, createInvite, joinWithNewAccount, newChat, send, signIn } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const run = Date.now().toString(36);
const NEW_PASSWORD = "marble kettle horizon";

async function signOut(page: Page) {
  await page.goto("/chat");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
}

async function signedOutPage(browser: Browser) {
  const context = await browser.newContext(SIGNED_OUT);
  return { context, page: await context.newPage() };
}

const profileForm = (page: Page, name: string) => page.getByRole("form", { name });

test("a member changes their password with the current one, then signs in with the new one", async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { page: member, context, user } = await joinWithNewAccount(browser, await createInvite(page));
  await member.getByRole("link", { name: "Profile" }).click();
  await expect(member.getByRole("heading", { name: "Your profile" })).toBeVisible();

  // The name: saved through the form and shown in the sidebar; over-long through better-auth's own endpoint, refused.
  const nameForm = profileForm(member, "Your name");
  await nameForm.getByLabel("Name").fill(`${user.name} Renamed`);
  await nameForm.getByRole("button", { name: "Save name" }).click();
  await expect(nameForm.getByRole("status")).toHaveText("Name saved.");
  await member.reload();
  await expect(member.getByText(`${user.name} Renamed`, { exact: true })).toBeVisible();
  const origin = new URL(member.url()).origin;
  const tooLong = await member.request.post("/api/auth/update-user", { data: { name: "x".repeat(101) }, headers: { origin } });
  expect(tooLong.status()).toBe(400);
  await member.reload();
  await expect(member.getByText(`${user.name} Renamed`, { exact: true })).toBeVisible();

  const form = profileForm(member, "Change password");

  // A weak new password and a wrong current one are refused, and nothing changes.
  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password").fill("password123");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText(/Choose a harder password: it is/)).toBeVisible();
  await form.getByLabel("Current password").fill("not my password at all");
  await form.getByLabel("New password").fill(NEW_PASSWORD);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("This is not your current password.")).toBeVisible();

  await form.getByLabel("Current password").fill(user.password);
  await form.getByLabel("New password").fill(NEW_PASSWORD);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByRole("status")).toHaveText("Password changed. Your other sessions were signed out.");
  // This browser stays signed in.
  await member.reload();
  await expect(member.getByRole("heading", { name: "Your profile" })).toBeVisible();

  await signOut(member);
  await signIn(member, user.email, user.password);
  await expect(member.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await signIn(member, user.email, NEW_PASSWORD);
  await expect(member).toHaveURL(/\/chat$/);
  await context.close();
});

test("an admin's reset link sets a new password once and signs the member out everywhere", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context, user } = await joinWithNewAccount(browser, await createInvite(page));

  // Signed out, the sign-in page offers "Forgot password?" (the e2e stack has email on: e2e/mail-server.ts).
  const stranger = await signedOutPage(browser);
  await stranger.page.goto("/sign-in");
  await expect(stranger.page.getByRole("link", { name: "Forgot password?" })).toBeVisible();

  // A member has no way to make one: the members page is the admins'.
  expect((await member.goto("/admin/members"))?.status()).toBe(403);

  await page.goto("/admin/members");
  await expect(page.getByRole("button", { name: `Reset password of ${ADMIN.name}` })).toHaveCount(0);
  await page.getByRole("button", { name: `Reset password of ${user.name}` }).click();
  const field = page.getByLabel(`Password reset link for ${user.name}`);
  await expect(field).toHaveValue(/\/reset\/[A-Za-z0-9_-]{20,}$/);
  const link = await field.inputValue();
  await expect(page.getByText("Works once, for 24 hours.", { exact: false })).toBeVisible();

  // The link asks for a new password; a weak one is refused and the link stays usable.
  await stranger.page.goto(link);
  await expect(stranger.page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(stranger.page.getByText(`For ${user.email}.`)).toBeVisible();
  await stranger.page.getByLabel("New password", { exact: true }).fill("qwertyuiop");
  await stranger.page.getByRole("button", { name: "Set new password" }).click();
  await expect(stranger.page.getByText(/Choose a harder password: it is/)).toBeVisible();
  await stranger.page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await stranger.page.getByRole("button", { name: "Set new password" }).click();
  await expect(stranger.page).toHaveURL(/\/sign-in\?reset=1$/);
  await expect(stranger.page.getByRole("status")).toHaveText("Your password was changed. Sign in with the new one.");

  // The member's old session has ended.
  await member.goto("/chat");
  await expect(member).toHaveURL(/\/sign-in/);
  // The old password fails, the new one works.
  await signIn(stranger.page, user.email, user.password);
  await expect(stranger.page.getByRole("alert").filter({ hasText: "Wrong email or password." })).toBeVisible();
  await signIn(stranger.page, user.email, NEW_PASSWORD);
  await expect(stranger.page).toHaveURL(/\/chat$/);

  // The link works once.
  await signOut(stranger.page);
  await stranger.page.goto(link);
  await expect(stranger.page.getByRole("heading", { name: "Reset link not usable" })).toBeVisible();
  await expect(stranger.page.getByRole("alert").filter({ hasText: "already been used" })).toHaveText(
    "This password reset link has already been used. Ask for a new one with “Forgot password?” on the sign-in page.",
  );

  // The audit log names both steps.
  await page.goto("/admin/audit");
  await expect(page.getByText("password.reset-link").first()).toBeVisible();
  await expect(page.getByText("password.reset", { exact: true }).first()).toBeVisible();
  await context.close();
  await stranger.context.close();
});

test("a personal default model answers new chats, and personal instructions reach the model", async ({ page }) => {
  test.setTimeout(150_000);
  // A team of the admin's own with a second model (Chat Completions) beside the operator's.
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(`Accounts ${run}`);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await page.goto("/admin/providers");
  const form = page.getByRole("form", { name: "New provider" });
  await form.getByLabel("Name").fill(`Second ${run}`);
  await chooseOption(form.getByLabel("Kind"), "OpenAI (Chat Completions)");
  await form.getByLabel("Base URL").fill(UPSTREAM);
  await form.getByLabel("API key").fill("sk-e2e-accounts-second-0000");
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  await page.getByText("Add a model by id", { exact: true }).click();
  const model = page.getByRole("form", { name: "New model" });
  await model.getByLabel("Model id").fill("accounts-second-model");
  await model.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByRole("list", { name: "Models" })).toContainText("accounts-second-model");

  // Before a personal choice, new chats use the team's default.
  await newChat(page);
  await send(page, "Accounts: which model answers");
  await expect(answer(page)).toContainText("The team's default model answers.");

  await page.goto("/profile");
  const modelForm = profileForm(page, "Default model");
  await chooseOption(modelForm.getByLabel("Model for new chats"), "accounts-second-model");
  await modelForm.getByRole("button", { name: "Save default model" }).click();
  await expect(modelForm.getByRole("status")).toHaveText("Default model saved. New chats start with it.");
  await page.reload();
  await expect(profileForm(page, "Default model").getByLabel("Model for new chats").locator("option:checked")).toHaveText("accounts-second-model");

  await newChat(page);
  await expect(page.getByLabel("Model", { exact: true }).locator("option:checked")).toHaveText("accounts-second-model");
  await send(page, "Accounts: which model answers");
  await expect(answer(page)).toContainText("The second model answers: your default.");

  // Instructions: too long is refused; saved ones reach the model's system prompt; cleared, they stop.
  await page.goto("/profile");
  const instructions = profileForm(page, "Instructions");
  const box = instructions.getByLabel("Personal instructions");
  await box.evaluate((el) => el.removeAttribute("maxlength"));
  await box.fill("x".repeat(4001));
  await instructions.getByRole("button", { name: "Save instructions" }).click();
  await expect(instructions.getByText("At most 4,000 characters.", { exact: true })).toBeVisible();
  await box.fill("Speak like a lighthouse keeper.");
  await instructions.getByRole("button", { name: "Save instructions" }).click();
  await expect(instructions.getByRole("status")).toHaveText("Instructions saved. They apply from your next message.");

  await newChat(page);
  await send(page, "Accounts: greet me");
  await expect(answer(page)).toContainText("Ahoy from the lighthouse, keeper of your instructions.");

  await page.goto("/profile");
  await profileForm(page, "Instructions").getByLabel("Personal instructions").fill("");
  await profileForm(page, "Instructions").getByRole("button", { name: "Save instructions" }).click();
  await expect(profileForm(page, "Instructions").getByRole("status")).toBeVisible();
  await newChat(page);
  await send(page, "Accounts: greet me");
  await expect(answer(page)).toContainText("Plain hello, no instructions.");

  // The new pages pass axe in light and dark: the profile, the first-run checklist of this team (no
  // MCP server yet), a reset link and the sign-in page.
  const { page: member, context } = await joinWithNewAccount(page.context().browser()!, await createInvite(page));
  await page.goto("/admin/members");
  await page
    .getByRole("button", { name: /^Reset password of / })
    .first()
    .click();
  const resetLink = await page.getByLabel(/^Password reset link for /).inputValue();
  const found: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await applyTheme(member, theme);
    for (const path of ["/profile", "/chat", "/admin/members"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      if (path === "/chat") await expect(page.getByRole("heading", { name: "Get your team started" })).toBeVisible();
      found.push(...(await violations(page)).map((v) => `${theme} ${path}: ${v}`));
    }
    await member.context().clearCookies();
    await applyTheme(member, theme);
    for (const path of [resetLink, "/sign-in?reset=1"]) {
      await member.goto(path);
      await expect(member.locator("h1")).toBeVisible();
      found.push(...(await violations(member)).map((v) => `${theme} ${path}: ${v}`));
    }
  }
  expect(found).toEqual([]);
  await context.close();
});
