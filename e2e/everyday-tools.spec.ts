// The tools picker as members use it every day: tools an admin set to "Never offer" are not listed,
// tools that ask first say so (visibly and to screen readers), the servers an admin turns on by
// default are on in a member's first new chat, a member's last choice carries over to their next new
// chat, and on a phone the picker never covers the message box.
import { expect, test, type Page } from "@playwright/test";
import { createInvite, joinWithNewAccount, newChat } from "./helpers";
import { addEverything, adminWithEverything, createTeam, setToolPolicy } from "./admin-steps";

adminWithEverything();

const picker = (page: Page) => page.getByRole("dialog", { name: "Tools for this chat" });
const toolsButton = (page: Page) => page.getByRole("button", { name: /^Tools/ });

async function openPicker(page: Page) {
  await toolsButton(page).click();
  await expect(picker(page)).toBeVisible();
  return picker(page);
}

test("members see only tools they may use, which ones ask first, the team's defaults, and their last choice in new chats", async ({ page, browser }) => {
  test.setTimeout(150_000);
  await createTeam(page, "Everyday Tools");
  await addEverything(page);
  const serverUrl = page.url().replace(/\?.*$/, "");
  await setToolPolicy(page, "get-env", "Never offer");
  await setToolPolicy(page, "echo", "Ask every time");
  await setToolPolicy(page, "get-sum", "Run without asking");
  const onByDefault = page.getByRole("checkbox", { name: "On by default in new chats" });
  await expect(onByDefault).not.toBeChecked();
  await onByDefault.check();
  await expect(page.getByRole("status").filter({ hasText: "On by default" })).toBeVisible();
  await page.goto(serverUrl);
  await expect(onByDefault).toBeChecked();

  // A member's first chat: the server's tools are on without touching anything.
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));
  await newChat(member);
  await expect(toolsButton(member)).toHaveAccessibleName(/^Tools \(\d+\), \d+ ask first$/);
  const list = await openPicker(member);
  await expect(list.locator('[data-tool="get-env"]')).toHaveCount(0); // Never offer: not listed
  const checked = await list.getByRole("checkbox", { checked: true, name: /^Use everything / }).count();
  expect(checked).toBe(await list.locator("[data-tool]").count());
  await expect(toolsButton(member)).toHaveAccessibleName(new RegExp(`^Tools \\(${checked}\\)`));
  // echo asks first (the admin's policy), get-sum runs without asking: a visible mark and its text.
  const echo = list.getByRole("checkbox", { name: "Use everything echo", exact: true });
  await expect(echo).toHaveAccessibleDescription("asks first");
  await expect(list.locator('[data-tool="echo"]')).toContainText("asks first");
  await expect(list.getByRole("checkbox", { name: "Use everything get-sum", exact: true })).toHaveAccessibleDescription("");
  await expect(list.locator('[data-tool="get-sum"]')).not.toContainText("asks first");

  // The member switches echo off; their next new chat starts the same way.
  // A new chat is a draft until its first message: the change is saved as the member's choice for new chats.
  await echo.uncheck();
  await expect
    .poll(async () => ((await (await member.request.get("/api/tools/new-chat")).json()) as { selection: { tools: string[] } }).selection.tools.length)
    .toBe(checked - 1);
  await member.keyboard.press("Escape");
  await newChat(member);
  await expect(toolsButton(member)).toHaveAccessibleName(new RegExp(`^Tools \\(${checked - 1}\\)`));
  const again = await openPicker(member);
  await expect(again.getByRole("checkbox", { name: "Use everything echo", exact: true })).not.toBeChecked();
  await expect(again.getByRole("checkbox", { name: "Use everything get-sum", exact: true })).toBeChecked();
  await member.keyboard.press("Escape");

  // On a phone the picker opens above the composer and leaves the message box visible.
  await member.setViewportSize({ width: 360, height: 740 });
  const phone = await openPicker(member);
  const [popover, box] = await Promise.all([phone.boundingBox(), member.getByRole("textbox", { name: "Message" }).boundingBox()]);
  expect(popover!.y + popover!.height).toBeLessThanOrEqual(box!.y);
  expect(popover!.x).toBeGreaterThanOrEqual(0);
  expect(popover!.x + popover!.width).toBeLessThanOrEqual(360);
  await context.close();
});
