// Accessibility of every page, checked with axe-core in light and dark: sign-in, an invite, the chat
// home, a chat with an answer, a tool card and a wide code block (also with the Tools popover and the
// shortcuts dialog open), every admin page (members, providers and one provider, MCP servers and one
// server, the audit log), settings and a new team. No serious or critical violation is allowed
// (colour contrast, scrollable regions reachable by keyboard, names, …). The first-run setup page is
// checked in first-run.setup.ts, the only time it exists.
import { expect, test } from "@playwright/test";
import { trustReadOnlyHints } from "./admin-steps";
import { THEMES, applyTheme, violations } from "./axe";
import { MCP_URL, startEverything, stopEverything } from "./everything";
import { ADMIN, SIGNED_OUT, addMcpServer, answer, createInvite, newChat, send, signIn, testMcpConnection } from "./helpers";

// Signed in afresh: sign-in.spec signs the stored admin session out.
test.use(SIGNED_OUT);
test.beforeEach(async ({ page }, info) => {
  if (info.title.startsWith("the sign-in page")) return;
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/chat$/);
});
test.beforeAll(startEverything);
test.afterAll(stopEverything);

test("signed-in pages have no serious violations, in light and dark", async ({ page }) => {
  test.setTimeout(240_000);
  // A team with server-everything and a chat with an answer and a tool card.
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill("Accessible Engines");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await addMcpServer(page, "everything", MCP_URL);
  await expect(await testMcpConnection(page)).toContainText("echo");
  await trustReadOnlyHints(page); // echo, marked read-only, runs without asking
  const serverUrl = page.url().replace(/\?.*$/, "");
  await page.goto("/admin/providers");
  const providerForm = page.getByRole("form", { name: "New provider" });
  await providerForm.getByLabel("Name").fill("Accessible provider");
  await providerForm.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
  await providerForm.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  const providerUrl = page.url();

  await newChat(page);
  await page.getByRole("button", { name: /^Tools/ }).click();
  await page.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: /^Tools \(\d+\)/ })).toBeVisible();
  await send(page, "Echo via MCP");
  await expect(answer(page).locator('[data-tool-name="everything__echo"]')).toContainText("Echo: hello from parley");
  await expect(answer(page)).toContainText("The server echoed it back.");
  await send(page, "Show me a wide code block");
  await expect(answer(page)).toContainText("That is all.");
  const chatUrl = page.url();
  expect(chatUrl).toMatch(/\/chat\/[a-z0-9]+$/);

  const pages = [chatUrl, "/chat", "/admin/members", "/admin/providers", providerUrl, "/admin/mcp", serverUrl, "/admin/audit", "/settings", "/teams/new"];
  const found: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      await expect(page.getByRole("main")).toBeVisible();
      if (path === chatUrl) {
        await expect(page.locator('[data-tool-name="everything__echo"]')).toBeVisible();
        await expect(answer(page).locator("pre").first()).toBeVisible();
        // The wide code block scrolls sideways: a keyboard user reaches it (a named region, in the tab order).
        await expect(answer(page).getByRole("region", { name: "Code (js)" })).toHaveAttribute("tabindex", "0");
      }
      found.push(...(await violations(page)).map((v) => `${theme} ${path}: ${v}`));
      if (path !== chatUrl) continue;
      // The chat with the Tools popover open, then with the shortcuts dialog open.
      await page.getByRole("button", { name: /^Tools/ }).click();
      await expect(page.getByRole("dialog", { name: "Tools for this chat" })).toBeVisible();
      found.push(...(await violations(page)).map((v) => `${theme} ${path} (Tools open): ${v}`));
      await page.keyboard.press("Escape");
      await expect(page.getByRole("textbox", { name: "Message" })).toBeFocused(); // closing Tools returns there
      await page.getByRole("link", { name: "Settings" }).focus();
      await page.keyboard.press("?");
      await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
      found.push(...(await violations(page)).map((v) => `${theme} ${path} (shortcuts open): ${v}`));
      await page.keyboard.press("Escape");
    }
  }
  expect(found).toEqual([]);

  // An invite link, as the person who receives it sees it (signed out).
  const invite = await createInvite(page);
  for (const theme of THEMES) {
    const context = await page.context().browser()!.newContext(SIGNED_OUT);
    const visitor = await context.newPage();
    await applyTheme(visitor, theme);
    await visitor.goto(invite);
    await expect(visitor.getByRole("heading", { name: /^Join / })).toBeVisible();
    expect(await violations(visitor)).toEqual([]);
    await context.close();
  }
});

for (const theme of THEMES) {
  test(`the sign-in page has no serious violations (${theme})`, async ({ browser }) => {
    const context = await browser.newContext(SIGNED_OUT);
    const page = await context.newPage();
    await applyTheme(page, theme);
    await page.goto("/sign-in");
    await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
    await context.close();
  });
}
