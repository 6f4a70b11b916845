// The shell works on a 360 px wide screen: the sidebar is a drawer behind a Menu button.
import { expect, test } from "@playwright/test";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam, viewport: { width: 360, height: 740 } });

test("at 360 px the sidebar opens from the Menu button and stays usable", async ({ page }) => {
  await page.goto("/settings");
  const newChat = page.getByRole("link", { name: "New chat", exact: true });
  await expect(newChat).toBeHidden();
  await page.getByRole("button", { name: "Open menu" }).click();
  await expect(newChat).toBeVisible();
  await newChat.click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(newChat).toBeHidden(); // the drawer closes after navigating
  // From a new chat, New chat again still closes the drawer (the address does not change).
  await page.getByRole("button", { name: "Open menu" }).click();
  await newChat.click();
  await expect(newChat).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(360);
});

test("dark mode can be switched on and is remembered", async ({ page }) => {
  await page.goto("/chat");
  await page.getByRole("button", { name: "Open menu" }).click();
  const html = page.locator("html");
  const wasDark = (await html.getAttribute("class"))?.includes("dark") ?? false;
  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  await page.reload();
  if (wasDark) await expect(html).not.toHaveClass(/dark/);
  else await expect(html).toHaveClass(/dark/);
});
