// The composer's two MCP pickers at a laptop's size (1280×860), against our MCP server
// (e2e/mcp-test-server.mjs): "Attach" opens where it fits, above the message box, wholly inside the
// window and usable with the keyboard alone; "/" lists the prompts as a combobox (arrows move, Enter
// picks, Escape closes) and never sends the half-typed command as a message.
import type { ChildProcess } from "node:child_process";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ensureMcpServer, newChat } from "./helpers";
import { ensureFileTeam, inOwnTeam } from "./own-team";
import { startMcpTestServer } from "./mcp-test-process";

let server: ChildProcess | undefined;

test.use({ storageState: inOwnTeam, viewport: { width: 1280, height: 860 } });

test.beforeAll(async ({ browser }) => {
  const started = await startMcpTestServer();
  server = started.process;
  await ensureFileTeam(browser);
  await ensureMcpServer(browser, "pickers", started.url);
});
test.afterAll(() => {
  server?.kill("SIGKILL");
});

/** The ids of the member's newest chats (a chat made now would be among them). */
const chatIds = async (page: Page) => ((await (await page.request.get("/api/chats")).json()) as { chats: { id: string }[] }).chats.map((c) => c.id);

/** Presses Tab (or Shift+Tab) until `target` has focus, as a person would; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, key = "Tab", max = 8) {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press(key);
  await expect(target).toBeFocused();
}

test("Attach opens above the message box, wholly inside the window, and works from the keyboard", async ({ page }) => {
  await newChat(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeFocused();
  // From the message box, Shift+Tab back to Attach (it sits before the box), then Enter.
  await tabTo(page, page.getByRole("button", { name: /^Attach/ }), "Shift+Tab");
  await page.keyboard.press("Enter");
  const menu = page.getByRole("dialog", { name: "Attach a resource" });
  const serverButton = menu.getByRole("button", { name: /^pickers/ });
  await expect(serverButton).toBeVisible();

  const inside = async () => {
    const box = (await menu.boundingBox())!;
    const composer = (await page.getByRole("textbox", { name: "Message" }).boundingBox())!;
    const scrolls = await menu.evaluate((el) => el.scrollHeight > el.clientHeight + 1);
    return { top: box.y >= 0, bottom: box.y + box.height <= 860, above: box.y + box.height <= composer.y, scrolls };
  };
  // Where it settles (the popover places itself once it has measured its content, which may still be
  // loading when it first shows; a page's live channel can also refresh the composer just then).
  await expect.poll(inside).toEqual({ top: true, bottom: true, above: true, scrolls: false });

  // Keyboard only: Tab to the server, Enter; Tab to "Read me", Enter.
  await tabTo(page, serverButton);
  await page.keyboard.press("Enter");
  const readMe = menu.getByRole("button", { name: /Read me/ });
  await expect(readMe).toBeVisible();
  await expect.poll(inside).toEqual({ top: true, bottom: true, above: true, scrolls: false });
  await tabTo(page, readMe);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Attached resources" })).toContainText("pickers · Read me");
  await expect(menu).toHaveCount(0);
});

test("/ then ArrowDown and Enter, or Tab, never sends the half-typed command nor makes a chat", async ({ page }) => {
  await newChat(page);
  const before = await chatIds(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.pressSequentially("/");
  await expect(page.getByText("Review code")).toBeVisible();
  await box.press("ArrowDown");
  await box.press("Enter");
  await expect(page.getByLabel(/^language/)).toBeFocused(); // the prompt's argument form, not a sent message
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/chat$/);
  expect(await chatIds(page)).toEqual(before);
});

test("/ lists the prompts as a combobox: ArrowDown and Enter pick one, Escape closes, nothing is sent", async ({ page }) => {
  await newChat(page);
  const before = await chatIds(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.pressSequentially("/");
  const list = page.getByRole("listbox", { name: "Prompts" });
  const review = list.getByRole("option", { name: /Review code/ });
  await expect(review).toBeVisible();
  await expect(box).toHaveAttribute("aria-controls", (await list.getAttribute("id"))!);

  // ArrowDown makes the first prompt the active one (the box keeps focus); Enter picks it.
  await box.press("ArrowDown");
  await expect(box).toBeFocused();
  await expect(review).toHaveAttribute("aria-selected", "true");
  await expect(box).toHaveAttribute("aria-activedescendant", (await review.getAttribute("id"))!);
  await box.press("Enter");
  // The prompt has an argument: its form takes focus; nothing was sent.
  const form = page.getByRole("form", { name: "Arguments of Review code" });
  await expect(form.getByLabel(/^language/)).toBeFocused();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  await page.keyboard.type("Rust");
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("Review this Rust code.");
  await expect(box).toBeFocused();
  await expect(list).toHaveCount(0);

  // Escape closes the list and leaves the text; the list never sends a half-typed command.
  await box.fill("");
  await box.pressSequentially("/re");
  await expect(review).toBeVisible();
  await box.press("Tab"); // Tab does not leave for Send while the list is open: it picks, as Enter does
  await expect(form).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(form).toHaveCount(0);
  await expect(box).toBeFocused();
  await expect(box).toHaveValue("/re");
  await box.fill("");
  await box.pressSequentially("/re");
  await expect(review).toBeVisible();
  // Nor does Send while the list is open; once it is closed, "/re" is a message like any other.
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeDisabled();
  await box.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(box).toHaveValue("/re");
  await expect(box).toBeFocused();
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeEnabled();

  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
  expect(await chatIds(page)).toEqual(before);
});
