// Approve from an email, in Chromium: the admin makes echo "An admin approves" and names a second admin
// as the server's only approver; a member's call waits; the approver's email (read from the stack's
// test mailbox) names the tool, who asked, the team and the arguments; another admin who opens its link
// is refused (403) and changes nothing; the approver opens it signed out, signs in and lands on the
// decision page, which shows the inbox's card (axe-clean); they approve, the member's open chat goes on
// by itself (and the member, who asked for it in their profile, is emailed the outcome), and the used
// link says so (404).
import { expect, test, type Browser } from "@playwright/test";
import { addEverything, setToolPolicy } from "./admin-steps";
import { violations } from "./axe";
import { startEverything, stopEverything } from "./everything";
import { SIGNED_OUT, answer, createInvite, joinWithNewAccount, newChat, send, teamName, uniqueUser } from "./helpers";
import { linkIn, waitForMail } from "./mailbox";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

async function signedOutPage(browser: Browser) {
  const context = await browser.newContext(SIGNED_OUT);
  return { context, page: await context.newPage() };
}
test.beforeAll(startEverything);
test.afterAll(stopEverything);

test("a member's admin-only call emails the named approver, whose link approves it, and the member's answer goes on", async ({ page: admin, browser }) => {
  test.setTimeout(180_000);
  await addEverything(admin);
  await setToolPolicy(admin, "echo", "An admin approves");
  await admin.getByRole("checkbox", { name: "On by default in new chats" }).check();
  await expect(admin.getByRole("status").filter({ hasText: "On by default" })).toBeVisible();
  const serverPage = admin.url();

  const approverUser = uniqueUser("approver");
  const { context: joined } = await joinWithNewAccount(browser, await createInvite(admin, "admin"), approverUser);
  await joined.close();
  const { page: member, context: memberContext, user: memberUser } = await joinWithNewAccount(browser, await createInvite(admin));

  // The server's approvers: only the new admin is emailed for its calls.
  await admin.goto(serverPage);
  const approvers = admin.getByRole("form", { name: "Approvers" });
  await approvers.getByRole("checkbox", { name: new RegExp(approverUser.email) }).check();
  await approvers.getByRole("button", { name: "Save approvers" }).click();
  await expect(approvers.getByRole("status")).toHaveText(/Approvers saved: 1 admin is emailed/);

  // The member asks, in Profile → Notifications, to hear when an admin decides a call of theirs.
  await member.goto("/profile");
  const notifications = member.getByRole("form", { name: "Email notifications" });
  await notifications.getByRole("checkbox", { name: "Email me when an admin decides a tool call of mine" }).check();
  await notifications.getByRole("button", { name: "Save notifications" }).click();
  await expect(notifications.getByRole("status")).toHaveText("Notifications saved.");
  expect(await violations(member)).toEqual([]);

  await newChat(member);
  await send(member, "Approvals: admin echo");
  const card = answer(member).locator('[data-tool-name="everything__echo"]');
  await expect(card.getByRole("status").filter({ hasText: "Waiting for an admin" })).toBeVisible();

  const mail = await waitForMail(approverUser.email, `Approval needed: everything · echo for ${memberUser.name}`);
  expect(mail.text).toContain(`${memberUser.name} (${memberUser.email}) asked for everything · echo`);
  expect(mail.text).toContain(teamName());
  expect(mail.text).toContain('"message": "needs an admin"');
  const link = linkIn(mail, "/approvals/link/");

  // Another admin of the team (not the one it was sent to) cannot use it.
  const foreign = await admin.goto(link);
  expect(foreign?.status()).toBe(403);
  await expect(admin.getByRole("alert").filter({ hasText: "This approval link was sent to another admin." })).toBeVisible();

  // The approver reads the email elsewhere, signed out: the link asks them to sign in, then opens the call.
  const { page: approver, context: approverContext } = await signedOutPage(browser);
  await approver.goto(link);
  await expect(approver).toHaveURL(/\/sign-in\?next=/);
  await approver.getByLabel("Email").fill(approverUser.email);
  await approver.getByLabel("Password").fill(approverUser.password);
  await approver.getByRole("button", { name: "Sign in" }).click();
  await expect(approver).toHaveURL(link);
  await expect(approver.getByRole("heading", { name: "Decide a tool call", level: 1 })).toBeVisible();
  const item = approver.getByRole("article", { name: "everything · echo" });
  await expect(item).toContainText("Approvals: admin echo");
  await expect(item).toContainText("needs an admin");
  expect(await violations(approver)).toEqual([]);
  await item.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(approver.getByRole("status")).toHaveText(`Approved: everything · echo for ${memberUser.name}. The member's answer goes on in their chat.`);

  // The member's chat, never reloaded, goes on; the card says who decided.
  await expect(answer(member)).toContainText("The admin let it run.", { timeout: 30_000 });
  await expect(card.locator("[data-decision]")).toHaveText(new RegExp(`^Approved by ${approverUser.name} \\(admin\\) at `));
  const told = await waitForMail(memberUser.email, "Your call everything · echo was approved");
  expect(told.text).toContain(`by ${approverUser.name}`);

  // The link worked once.
  const again = await approver.goto(link);
  expect(again?.url()).toBe(link);
  expect(again?.status()).toBe(404);
  await expect(approver.getByRole("alert").filter({ hasText: "This approval link was used already." })).toBeVisible();
  await approverContext.close();
  await memberContext.close();
});
