// Keyboard use of the everyday chat: focus is back in the message box after New chat, Send, closing
// Tools, Approve, Deny and Stop; skip links lead to the message box and the page's content; "?" opens
// the shortcuts (not while typing) and "/" goes to the message box; Escape closes the mobile menu.
import { expect, test, type Page } from "@playwright/test";
import { answer, newChat, send } from "./helpers";
import { addEverything, adminWithEverything, createTeam, setToolPolicy } from "./admin-steps";

adminWithEverything();

const box = (page: Page) => page.getByRole("textbox", { name: "Message" });

/** Puts keyboard focus at the very start of the page, as after loading it with nothing focused. */
const focusTop = (page: Page) =>
  page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute("tabindex");
  });

test("focus returns to the message box after New chat, Send, Tools, Approve, Deny and Stop", async ({ page }) => {
  test.setTimeout(150_000);
  await createTeam(page, "Keyboard Keepers");
  await addEverything(page);
  await setToolPolicy(page, "echo", "Ask every time");
  await page.getByRole("checkbox", { name: "On by default in new chats" }).check();
  await expect(page.getByRole("status").filter({ hasText: "On by default" })).toBeVisible();

  await newChat(page);
  await expect(box(page)).toBeFocused();

  // Tools: open with the keyboard, Escape closes and puts focus back in the message box.
  await page.getByRole("button", { name: /^Tools/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: "Tools for this chat" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Tools for this chat" })).toBeHidden();
  await expect(box(page)).toBeFocused();

  await send(page, "Keys: approve the echo");
  await expect(box(page)).toBeFocused();
  const approve = answer(page).getByRole("button", { name: "Approve", exact: true });
  await approve.focus();
  await page.keyboard.press("Enter");
  await expect(box(page)).toBeFocused();
  await expect(answer(page)).toContainText("Echoed for the keyboard.");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeHidden(); // the answer is over

  await send(page, "Keys: deny the echo");
  const deny = answer(page).getByRole("button", { name: "Deny", exact: true });
  await deny.focus();
  await page.keyboard.press("Enter");
  await expect(box(page)).toBeFocused();
  await expect(answer(page)).toContainText("Fine, no echo for the keyboard.");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeHidden();

  await send(page, "Keys: talk slowly");
  const stop = page.getByRole("button", { name: "Stop", exact: true });
  await expect(answer(page)).toContainText("Word1.");
  await stop.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await expect(box(page)).toBeFocused();
});

test("skip links lead to the message box and to the content; ? lists the shortcuts, / goes to the message box", async ({ page }) => {
  await newChat(page);
  // The message box takes focus once the page is live; start from the top only after that, or its
  // focus lands after ours and the Tab below starts from the box.
  await expect(box(page)).toBeFocused();
  await focusTop(page);
  await page.keyboard.press("Tab");
  const toBox = page.getByRole("link", { name: "Skip to message box" });
  await expect(toBox).toBeFocused();
  await expect(toBox).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(box(page)).toBeFocused();

  // Typing "?" in the message box types it.
  await page.keyboard.type("?");
  await expect(box(page)).toHaveValue("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();
  await box(page).fill("");

  // Elsewhere, "?" opens the shortcuts; Escape closes them and focus goes back where it was.
  const tools = page.getByRole("link", { name: "Settings" });
  await tools.focus();
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Go to the message box");
  await expect(help).toContainText("Show these shortcuts");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await expect(tools).toBeFocused();
  await page.keyboard.press("/");
  await expect(box(page)).toBeFocused();
  await expect(box(page)).toHaveValue("");

  // An admin page has no message box: its first skip link goes to the content.
  await page.goto("/admin/members");
  await focusTop(page);
  await page.keyboard.press("Tab");
  const toContent = page.getByRole("link", { name: "Skip to content" });
  await expect(toContent).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  await page.keyboard.press("Tab");
  // The next stop is the first admin section (Approvals, then Members …).
  await expect(page.getByRole("navigation", { name: "Admin sections" }).getByRole("link").first()).toBeFocused();
});

test("Escape closes the mobile menu and focus returns to its button", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/chat");
  const open = page.getByRole("button", { name: "Open menu" });
  await open.click();
  const menu = page.getByRole("dialog", { name: "Menu" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "New chat" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(open).toBeFocused();
});
