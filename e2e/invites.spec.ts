// Invite links: a second person joins through one and signs in; a used, forged or revoked link is
// refused with a clear message; duplicate emails, bad fields and weak passwords write nothing; people
// racing for one link leave one account.
import { expect, test } from "@playwright/test";
import { ADMIN, SIGNED_OUT, createInvite, joinWithNewAccount, signIn, teamName, uniqueUser } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

test("a second user joins through an invite, then signs in", async ({ page, browser }) => {
  // A whole story (sign-up, sign-out, sign-in, four admin pages): 45 s on a slow machine with other load.
  test.setTimeout(120_000);
  const url = await createInvite(page);
  const { page: bob, context, user } = await joinWithNewAccount(browser, url);
  await expect(bob.getByRole("heading", { name: teamName() })).toBeVisible();
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

test("weak passwords are refused with the reason, on the form and on better-auth's own endpoint", async ({ page, browser, baseURL }) => {
  const url = await createInvite(page);
  const context = await browser.newContext(SIGNED_OUT);
  const other = await context.newPage();
  await other.goto(url);
  const user = uniqueUser("strong");
  await other.getByLabel("Your name").fill(user.name);
  await other.getByLabel("Email").fill(user.email);
  for (const [weak, reason] of [
    ["password", "it is one of the most common passwords"],
    ["12345678", "it is one of the most common passwords"],
    ["        ", "it repeats the same character"],
  ]) {
    await other.getByLabel("Password").fill(weak);
    await other.getByRole("button", { name: "Create account and join" }).click();
    await expect(other.getByText(`Choose a harder password: ${reason}.`, { exact: false })).toBeVisible();
    await expect(other).toHaveURL(url);
  }
  await other.getByLabel("Password").fill(user.password);
  await other.getByRole("button", { name: "Create account and join" }).click();
  await expect(other).toHaveURL(/\/chat$/);
  // Changing the password through better-auth's endpoint holds to the same rule.
  const weak = await other.request.post("/api/auth/change-password", {
    headers: { origin: new URL(baseURL!).origin },
    data: { currentPassword: user.password, newPassword: "12345678" },
  });
  expect(weak.status()).toBe(400);
  expect((await weak.json()).message).toMatch(/one of the most common passwords/);
  await context.close();
});

test("six people joining with one link at once: one joins, five are told, and no stray accounts", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const url = await createInvite(page);
  const racers = await Promise.all(
    Array.from({ length: 6 }, async () => {
      const context = await browser.newContext(SIGNED_OUT);
      const racer = await context.newPage();
      const user = uniqueUser("racer");
      await racer.goto(url);
      await racer.getByLabel("Your name").fill(user.name);
      await racer.getByLabel("Email").fill(user.email);
      await racer.getByLabel("Password").fill(user.password);
      return { context, racer, user };
    }),
  );
  await Promise.all(racers.map(({ racer }) => racer.getByRole("button", { name: "Create account and join" }).click()));
  const outcomes = await Promise.all(
    racers.map(async ({ racer }) => {
      const joined = racer.waitForURL(/\/chat$/).then(() => "joined");
      // 409 when the other claim lands between this one's look at the link and its claim; 410 when it landed before.
      const told = racer
        .getByText(/Someone else has just used this invite link\.|This invite link has already been used\./)
        .first()
        .waitFor()
        .then(() => "told");
      return Promise.race([joined, told]);
    }),
  );
  expect(outcomes.filter((o) => o === "joined")).toHaveLength(1);
  expect(outcomes.filter((o) => o === "told")).toHaveLength(5);
  // The others have no account: signing in as one fails like any unknown email.
  const loser = racers[outcomes.indexOf("told")];
  for (const { context } of racers) if (context !== loser.context) await context.close();
  await signIn(loser.racer, loser.user.email, loser.user.password);
  await expect(loser.racer.getByText("Wrong email or password.").first()).toBeVisible();
  await loser.context.close();
  await page.goto("/admin/members");
  const joined = racers[outcomes.indexOf("joined")].user;
  await expect(page.getByTestId("member-row").filter({ hasText: joined.email })).toBeVisible();
  for (const { user } of racers) if (user !== joined) await expect(page.getByTestId("member-row").filter({ hasText: user.email })).toHaveCount(0);
});
