// Accessibility of the main pages, checked with axe-core in light and dark: sign-in, a chat with an
// answer and a tool card, admin providers, admin MCP servers, members and settings. No serious or
// critical violation is allowed.
import { expect, test } from "@playwright/test";
import { THEMES, applyTheme, violations } from "./axe";
import { MCP_URL, startEverything, stopEverything } from "./everything";
import { ADMIN, SIGNED_OUT, addMcpServer, answer, chooseOption, newChat, send, signIn, testMcpConnection } from "./helpers";

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

  await newChat(page);
  await page.getByRole("button", { name: /^Tools/ }).click();
  await page.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: /^Tools \(\d+\)/ })).toBeVisible();
  await send(page, "Echo via MCP");
  await expect(answer(page).locator('[data-tool-name="everything__echo"]')).toContainText("Echo: hello from parley");
  await expect(answer(page)).toContainText("The server echoed it back.");
  const chatUrl = page.url();
  expect(chatUrl).toMatch(/\/chat\/[a-z0-9]+$/);

  const found: string[] = [];
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    for (const path of [chatUrl, "/admin/providers", "/admin/mcp", "/admin/members", "/settings"]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      if (path === chatUrl) await expect(page.locator('[data-tool-name="everything__echo"]')).toBeVisible();
      found.push(...(await violations(page)).map((v) => `${theme} ${path}: ${v}`));
    }
  }
  expect(found).toEqual([]);

  // Back to the admin's first team for the specs that follow.
  await chooseOption(page.getByLabel("Team", { exact: true }), `${ADMIN.team} (admin)`);
  await expect(page.getByRole("heading", { name: ADMIN.team })).toBeVisible();
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
