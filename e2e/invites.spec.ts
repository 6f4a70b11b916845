// Invite links: a second person joins through one and signs in; a used, forged or revoked link is
// refused with a clear message; duplicate emails and bad fields write nothing.
import { expect, test } from "@playwright/test";
import { ADMIN, ADMIN_STATE, SIGNED_OUT, createInvite, joinWithNewAccount, signIn, uniqueUser } from "./helpers";

test.use({ storageState: ADMIN_STATE });

test("a second user joins through an invite, then signs in", async ({ page, browser }) => {
  const url = await createInvite(page);
  const { page: bob, context, user } = await joinWithNewAccount(browser, url);
  await expect(bob.getByRole("heading", { name: ADMIN.team })).toBeVisible();
  // Members have no admin link.
  await expect(bob.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await bob.getByRole("button", { name: "Sign out" }).click();
  await signIn(bob, user.email, user.password);
  await expect(bob).toHaveURL(/\/chat$/);
  await context.close();

  // The admin sees the new member in the team.
  await page.goto("/admin/members");
  await expect(page.getByTestId("member-row").filter({ hasText: user.email })).toBeVisible();
  // The audit log recorded the invite and the join.
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("cell", { name: "invite.accept" }).first()).toBeVisible();
});

test("a used invite link cannot be used again", async ({ page, browser }) => {
  const url = await createInvite(page);
  const first = await joinWithNewAccount(browser, url);
  await first.context.close();
  const context = await browser.newContext(SIGNED_OUT);
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByText("This invite link has already been used.")).toBeVisible();
  await expect(other.getByRole("button", { name: "Create account and join" })).toHaveCount(0);
  await context.close();
});

test("a forged invite link is refused", async ({ browser }) => {
  const context = await browser.newContext(SIGNED_OUT);
  const page = await context.newPage();
  await page.goto("/invite/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  await expect(page.getByText("This invite link is not valid.")).toBeVisible();
  await context.close();
});

test("a revoked invite link is refused", async ({ page, browser }) => {
  const url = await createInvite(page);
  await page.reload();
  const revokeButtons = page.getByRole("button", { name: "Revoke" });
  const open = await revokeButtons.count();
  await revokeButtons.first().click(); // newest first: the one just made
  await expect(revokeButtons).toHaveCount(open - 1);
  const context = await browser.newContext(SIGNED_OUT);
  const other = await context.newPage();
  await other.goto(url);
  await expect(other.getByText("This invite link was revoked.")).toBeVisible();
  await context.close();
});

test("joining with an email that already has an account, or bad fields, writes nothing", async ({ page, browser }) => {
  const url = await createInvite(page);
  const context = await browser.newContext(SIGNED_OUT);
  const other = await context.newPage();
  await other.goto(url);
  await other.getByLabel("Your name").fill("Someone");
  await other.getByLabel("Email").fill(ADMIN.email);
  await other.getByLabel("Password").fill("a long enough password");
  await other.getByRole("button", { name: "Create account and join" }).click();
  await expect(other.getByText("An account with this email already exists.", { exact: true })).toBeVisible();

  await other.getByLabel("Your name").evaluate((el) => el.removeAttribute("maxlength"));
  await other.getByLabel("Your name").fill("y".repeat(101));
  await other.getByLabel("Email").fill("someone@");
  await other.getByRole("button", { name: "Create account and join" }).click();
  await expect(other.getByText("At most 100 characters.")).toBeVisible();
  await expect(other.getByText("Enter a valid email address.")).toBeVisible();

  // The link is still unused: a correct attempt now succeeds.
  const user = uniqueUser();
  await other.getByLabel("Your name").fill(user.name);
  await other.getByLabel("Email").fill(user.email);
  await other.getByLabel("Password").fill(user.password);
  await other.getByRole("button", { name: "Create account and join" }).click();
  await expect(other).toHaveURL(/\/chat$/);
  await context.close();
});
