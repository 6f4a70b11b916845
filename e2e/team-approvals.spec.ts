// Approvals that involve the team, in Chromium with two people at once: a member and an admin, each in
// a browser context of their own. The admin makes echo "An admin approves"; the member's call waits
// ("Waiting for an admin") and the member cannot decide it (not even through the API); the admin's
// sidebar badge counts it without a reload; in the Approvals inbox the admin edits the input and
// approves; the member's open chat goes on by itself, showing the edited input beside the model's,
// who decided and the answer. The inbox passes axe. A rule on the arguments that runs a call without
// asking is named on the call's card.
import { expect, test } from "@playwright/test";
import { answer, chooseOption, createInvite, joinWithNewAccount, newChat, send } from "./helpers";
import { addEverything, adminWithEverything, createTeam, setToolPolicy } from "./admin-steps";
import { violations } from "./axe";

adminWithEverything();

test("an admin-only call waits for an admin, who edits and approves it from the inbox; the member's chat goes on live", async ({ page: admin, browser }) => {
  test.setTimeout(180_000);
  await createTeam(admin, "Approvals Team");
  await addEverything(admin);
  await setToolPolicy(admin, "echo", "An admin approves");
  await admin.getByRole("checkbox", { name: "On by default in new chats" }).check();
  await expect(admin.getByRole("status").filter({ hasText: "On by default" })).toBeVisible();
  // The tool page says what applies and why.
  await expect(admin.locator('[data-tool="echo"] [data-effective-policy]')).toHaveText(/An admin approves — Set for this tool\./);
  await expect(admin.locator('[data-tool="get-env"] [data-effective-policy]')).toHaveText(/Asks the member — New tools ask/);

  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(admin));
  // The admin waits on a chat page; the badge is to count the call without a reload.
  await admin.goto("/chat");
  const badge = admin.getByRole("link", { name: /^Approvals/ }).first();
  await expect(badge).toBeVisible();
  await expect(badge.locator("[data-approvals-count]")).toHaveCount(0);

  await newChat(member);
  await send(member, "Approvals: admin echo");
  const card = answer(member).locator('[data-tool-name="everything__echo"]');
  await expect(card.getByRole("status").filter({ hasText: "Waiting for an admin" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  // Not through the API either.
  const chatId = new URL(member.url()).pathname.split("/").pop()!;
  const stored = (await (await member.request.get(`/api/chat/${chatId}/messages`)).json()) as { messages: { parts: { approval?: { id: string } }[] }[] };
  const approvalId = stored.messages.flatMap((m) => m.parts).find((p) => p.approval)!.approval!.id;
  const origin = { origin: new URL(member.url()).origin };
  expect((await member.request.post("/api/chat", { headers: origin, data: { id: chatId, approvals: [{ approvalId, approved: true }] } })).status()).toBe(403);
  expect(
    (await member.request.post(`/api/chat/${chatId}/decisions`, { headers: origin, data: { approvals: [{ approvalId, approved: true }] } })).status(),
  ).toBe(403);
  expect((await member.request.post("/api/approvals", { headers: origin, data: { approvalId, approved: true } })).status()).toBe(403);

  // The admin's badge counts it, live.
  await expect(badge.locator("[data-approvals-count]")).toHaveText(/^1/);
  await badge.click();
  await expect(admin.getByRole("heading", { name: "Approvals", level: 1 })).toBeVisible();
  const item = admin.getByRole("article", { name: "everything · echo" });
  await expect(item).toContainText("Approvals: admin echo");
  await expect(item).toContainText("needs an admin");
  expect(await violations(admin)).toEqual([]);
  await item.getByRole("button", { name: "Edit" }).click();
  // The form generated from the schema: echo's one field.
  const field = item.getByRole("textbox", { name: /^message/ });
  await field.fill("edited by an admin");
  await item.getByRole("button", { name: "Approve with changes" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Edited and approved: everything · echo" })).toBeVisible();
  await expect(admin.getByText("No tool call is waiting for an admin.")).toBeVisible();

  // The member's chat, never reloaded, goes on: the edited input ran, beside the model's, with who decided.
  await expect(answer(member)).toContainText("The admin let it run.", { timeout: 30_000 });
  await expect(card).toContainText("Echo: edited by an admin");
  await expect(card.getByRole("table", { name: "Input changed before approval" })).toContainText("needs an admin");
  await expect(card.locator("[data-decision]")).toHaveText(/^Edited and approved by Ada Admin \(admin\) at /);
  await context.close();
});

test("a rule that runs a call without asking is named on the call's card", async ({ page: admin }) => {
  test.setTimeout(180_000);
  await createTeam(admin, "Rules Team");
  await addEverything(admin);
  await admin.locator('[data-tool="echo"]').getByText("Rules and time limit").click();
  const form = admin.getByRole("form", { name: "Add a rule to echo" });
  await form.getByLabel("Field").fill("message");
  await chooseOption(form.getByLabel("Condition"), "matches pattern");
  await form.getByLabel("Value").fill("^fine");
  await chooseOption(form.getByLabel("Then"), "run without asking");
  await form.getByRole("button", { name: "Add rule" }).click();
  const rule = "message matches /^fine/ → run without asking";
  await expect(admin.getByRole("list", { name: "Rules of echo" })).toContainText(rule);

  await newChat(admin);
  await admin.getByRole("button", { name: /^Tools/ }).click();
  await admin.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await admin.getByRole("button", { name: /^Tools/ }).click();
  await send(admin, "Approvals: rule echo");
  await expect(answer(admin)).toContainText("The rule let it run.", { timeout: 30_000 });
  // The stored answer (a reload, or anyone opening the chat later) names the rule on the card.
  await admin.reload();
  const card = answer(admin).locator('[data-tool-name="everything__echo"]');
  await expect(card).toContainText("Echo: fine to run");
  await expect(card.locator("[data-auto-rule]")).toHaveText(`Ran without asking: rule “${rule}”.`);
});
