// Email in Chromium against the production build, with the e2e stack's SMTP server on loopback
// (e2e/mail-server.ts): an invite sent to an address names the team and who invited, and its link is
// accepted from the email; "Forgot password?" answers the same for an unknown address, and its emailed
// link sets a new password once and signs the old session out; an admin's reset link arrives by email;
// Admin → Notifications shows the server and sends a test email. Without SMTP (a server of its own),
// the pages say email is off. The new pages pass axe.
import { expect, test, type Browser } from "@playwright/test";
import { violations } from "./axe";
import { ADMIN, SIGNED_OUT, joinWithNewAccount, signIn, teamName, uniqueUser } from "./helpers";
import { linkIn, mailTo, waitForMail } from "./mailbox";
import { inOwnTeam } from "./own-team";
import { ownServer } from "./own-server";

test.use({ storageState: inOwnTeam });
test.describe.configure({ mode: "serial" });

const NEW_PASSWORD = "saffron glacier tandem";

async function signedOut(browser: Browser) {
  const context = await browser.newContext(SIGNED_OUT);
  return { context, page: await context.newPage() };
}

let member: ReturnType<typeof uniqueUser>;

test("an invite sent by email names the team and who invited, and its link joins the team", async ({ page, browser }) => {
  member = uniqueUser("mailed");
  await page.goto("/admin/members");
  await page.getByLabel("Email (optional)").fill(member.email);
  await page.getByRole("button", { name: "Create invite link" }).click();
  await expect(page.getByRole("status")).toHaveText(`Invite emailed to ${member.email}. The link is below too, shown only once.`);
  const shown = await page.getByLabel("Invite link", { exact: true }).inputValue();
  await expect(page.getByText(`Member invite emailed to ${member.email} by ${ADMIN.name}`)).toBeVisible();

  const mail = await waitForMail(member.email, "invited you to");
  expect(mail.subject).toBe(`${ADMIN.name} invited you to ${teamName()} on Parley`);
  expect(mail.text).toContain(`${ADMIN.name} invited you to join the team ${teamName()} on Parley, as a member.`);
  const link = linkIn(mail, "/invite/");
  expect(link).toBe(shown);

  const joined = await joinWithNewAccount(browser, link, member);
  await joined.context.close();
  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: member.email })).toBeVisible();
});

test("Forgot password? emails a link that works once and signs the old session out", async ({ browser }) => {
  const old = await signedOut(browser);
  await signIn(old.page, member.email, member.password);
  await expect(old.page).toHaveURL(/\/chat$/);

  const { context, page } = await signedOut(browser);
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  // An unknown address gets the same answer, and no email.
  const nobody = `nobody-${Date.now().toString(36)}@example.com`;
  await page.getByLabel("Email").fill(nobody);
  await page.getByRole("button", { name: "Send reset link" }).click();
  const answer = page.getByRole("status");
  await expect(answer).toContainText("If an account with this address exists");
  const said = await answer.textContent();
  await page.reload();
  await page.getByLabel("Email").fill(member.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(said!);

  const mail = await waitForMail(member.email, "Reset your Parley password");
  expect(mail.text).toContain("Someone (we hope you) asked to reset the password");
  expect(await mailTo(nobody)).toEqual([]);
  const link = linkIn(mail, "/reset/");
  await page.goto(link);
  await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page).toHaveURL(/\/sign-in\?reset=1$/);

  // The old session has ended; the new password works; the link does not work again.
  await old.page.goto("/chat");
  await expect(old.page).toHaveURL(/\/sign-in/);
  await signIn(page, member.email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/chat$/);
  await context.clearCookies();
  await page.goto(link);
  // (Next.js's route announcer is an empty alert of its own.)
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveText(
    "This password reset link has already been used. Ask for a new one with “Forgot password?” on the sign-in page.",
  );
  await context.close();
  await old.context.close();
});

test("an admin's reset link arrives by email; Notifications shows the server and sends a test email", async ({ page }) => {
  await page.goto("/admin/members");
  await page.getByRole("button", { name: `Email a password reset link to ${member.name}` }).click();
  await expect(page.getByRole("status")).toHaveText(`Password reset link emailed to ${member.name} (${member.email}). It works once, for 24 hours.`);
  const mail = await waitForMail(member.email, (m) => m.text.includes(`${ADMIN.name}, an admin of your team, made a link for you`));
  expect(linkIn(mail, "/reset/")).toMatch(/\/reset\/[A-Za-z0-9_-]{20,}$/);

  await page.getByRole("link", { name: "Notifications" }).click();
  await expect(page).toHaveURL(/\/admin\/notifications$/);
  await expect(page.getByTestId("email-status")).toContainText(/Email is on\. Parley sends as Parley <parley@e2e\.test> through 127\.0\.0\.1:\d+/);
  expect(await violations(page)).toEqual([]);
  const before = (await mailTo(ADMIN.email)).filter((m) => m.subject === "Parley test email").length;
  await page.getByRole("button", { name: "Send test email" }).click();
  await expect(page.getByRole("status")).toHaveText(`Test email sent to ${ADMIN.email}. Check that it arrived.`);
  await expect.poll(async () => (await mailTo(ADMIN.email)).filter((m) => m.subject === "Parley test email").length).toBe(before + 1);
});

test.describe("without SMTP", () => {
  const server = ownServer("no-mail", Number(process.env.E2E_PORT || 3210) + 15);
  const admin = { name: "Olive Offline", email: "olive@example.com", password: "quartz meadow lantern", team: "Offline Team" };
  test.use({ ...SIGNED_OUT, baseURL: server.origin });
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await server.start();
  });
  test.afterAll(async () => server.dispose());

  test("everything works as before and the pages say email is off", async ({ page }) => {
    test.setTimeout(60_000);
    await page.goto("/forgot");
    await expect(
      page.getByText("Email is off on this server, so Parley cannot send you a link. Ask an admin of your team for a password reset link."),
    ).toBeVisible();
    await page.goto("/setup");
    await page.getByLabel("Your name").fill(admin.name);
    await page.getByLabel("Email").fill(admin.email);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByLabel("Team name").fill(admin.team);
    await page.getByRole("button", { name: "Create admin and team" }).click();
    await expect(page).toHaveURL(/\/chat$/);

    // Invites are links to hand over; the panel says why there is no address field.
    await page.goto("/admin/members");
    await expect(page.getByText("Email is off on this server: copy the link and send it yourself.")).toBeVisible();
    await expect(page.getByLabel("Email (optional)")).toHaveCount(0);
    await page.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByLabel("Invite link", { exact: true })).toHaveValue(/\/invite\/[A-Za-z0-9_-]{20,}$/);
    await page.goto("/admin/notifications");
    await expect(page.getByTestId("email-status")).toContainText("Email is off.");
    await expect(page.getByRole("button", { name: "Send test email" })).toHaveCount(0);
    await page.context().clearCookies();
    await page.goto("/sign-in");
    await expect(page.getByText("Forgot your password? Email is off on this server: ask an admin of your team for a password reset link.")).toBeVisible();
  });
});
