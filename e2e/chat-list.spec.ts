// The everyday chat list. New chat opens an empty composer and stores nothing; the first message
// stores the chat, which appears in the sidebar at once, and the model's title reaches the header
// and the sidebar without navigating. The list is searched by title, pinned chats go to "Pinned",
// archived ones leave the list for the "Archived" view and come back from it, and each chat's menu
// works from the keyboard. The sidebar has no serious axe violation in light or dark.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { createInvite, joinWithNewAccount, send, answer } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

/** A member of their own (an empty chat list to start from). */
async function freshMember(page: Page, browser: Parameters<typeof joinWithNewAccount>[0]) {
  return joinWithNewAccount(browser, await createInvite(page));
}

async function storedCount(page: Page): Promise<number> {
  const res = await page.request.get("/api/chats?view=active");
  expect(res.ok()).toBe(true);
  const active = ((await res.json()) as { chats: unknown[] }).chats.length;
  const archived = ((await (await page.request.get("/api/chats?view=archived")).json()) as { chats: unknown[] }).chats.length;
  return active + archived;
}

const sidebar = (page: Page) => page.getByRole("complementary", { name: "Sidebar" });
const chatLink = (page: Page, title: string) => sidebar(page).getByRole("navigation", { name: "Chats" }).getByRole("link", { name: title, exact: true });
const group = (page: Page, name: string) => sidebar(page).getByRole("region", { name, exact: true });

test("New chat stores nothing until the first message; the first answer names the chat in the header and the list, live", async ({ page, browser }) => {
  const { page: member, context } = await freshMember(page, browser);
  await expect(member.getByRole("heading", { name: "New chat", level: 1 })).toBeVisible();
  await expect(sidebar(member)).toContainText("No chats yet.");
  for (let i = 0; i < 2; i++) {
    await member.getByRole("link", { name: "New chat", exact: true }).click();
    await expect(member).toHaveURL(/\/chat$/);
  }
  expect(await storedCount(member)).toBe(0);

  // No full page load from here on: a marker on the window survives.
  await member.evaluate(() => ((window as unknown as { sidebarMarker: number }).sidebarMarker = 1));
  await send(member, "Sidebar: plan a tidepool walk for Saturday");
  await expect(member).toHaveURL(/\/chat\/[a-z0-9]{20,40}$/);
  await expect(answer(member)).toContainText("Go at low tide");
  await expect(member.getByRole("heading", { name: "Tidepool Walk Plan", level: 1 })).toBeVisible();
  await expect(chatLink(member, "Tidepool Walk Plan")).toHaveAttribute("aria-current", "page");
  await expect(group(member, "Today").getByRole("link", { name: "Tidepool Walk Plan" })).toBeVisible();
  expect(await member.evaluate(() => (window as unknown as { sidebarMarker?: number }).sidebarMarker)).toBe(1);
  expect(await storedCount(member)).toBe(1);

  // Stored as shown.
  await member.reload();
  await expect(member.getByRole("heading", { name: "Tidepool Walk Plan", level: 1 })).toBeVisible();
  await expect(answer(member)).toContainText("Go at low tide");
  await context.close();
});

test("search, pin, archive and restore from each chat's keyboard-operable menu; no serious axe violation in light or dark", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context } = await freshMember(page, browser);
  const origin = new URL(member.url()).origin;
  for (const title of ["Sourdough starter notes", "Kayak repair checklist", "Tidal calendar for Brest", "Old packing list"]) {
    const { id } = (await (await member.request.post("/api/chats", { headers: { origin } })).json()) as { id: string };
    const renamed = await member.request.patch(`/api/chat/${id}`, { headers: { origin }, data: { title } });
    expect(renamed.ok()).toBe(true);
  }
  await member.reload();
  const violations: string[] = [];
  const check = async (state: string) => {
    for (const theme of ["light", "dark"] as const) {
      await member.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), theme === "dark");
      const result = await new AxeBuilder({ page: member }).include("aside").include("[role=menu]").analyze();
      violations.push(
        ...result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${state} (${theme}): ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      );
    }
  };
  await expect(group(member, "Today").getByRole("link")).toHaveCount(4);
  await check("list");

  // Search by title (in the database), any case.
  const search = member.getByRole("searchbox", { name: "Search chats" });
  await search.fill("KAYAK");
  await expect(sidebar(member).getByRole("navigation", { name: "Chats" }).getByRole("link")).toHaveCount(1);
  await expect(chatLink(member, "Kayak repair checklist")).toBeVisible();
  await check("search");
  await search.fill("no such chat");
  await expect(sidebar(member)).toContainText("No chats match “no such chat”.");
  await search.fill("");
  await expect(sidebar(member).getByRole("navigation", { name: "Chats" }).getByRole("link")).toHaveCount(4);

  // Pin, with the keyboard: the chat moves to Pinned, on top, and focus stays on its menu button.
  const menuOf = (title: string) => sidebar(member).getByRole("button", { name: `Chat options for ${title}`, exact: true });
  await menuOf("Kayak repair checklist").focus();
  await member.keyboard.press("Enter");
  const menu = member.getByRole("menu");
  await expect(menu.getByRole("menuitem", { name: "Rename" })).toBeFocused();
  await check("menu open");
  await member.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: "Pin" })).toBeFocused();
  await member.keyboard.press("Enter");
  await expect(group(member, "Pinned").getByRole("link", { name: "Kayak repair checklist" })).toBeVisible();
  await expect(sidebar(member).getByRole("region").first()).toHaveAccessibleName("Pinned");
  await expect(menuOf("Kayak repair checklist")).toBeFocused();

  // Escape closes the menu and gives focus back to its button.
  await member.keyboard.press("Enter");
  await expect(menu).toBeVisible();
  await member.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(menuOf("Kayak repair checklist")).toBeFocused();

  // Rename from the menu.
  await menuOf("Old packing list").focus();
  await member.keyboard.press("Enter");
  await member.keyboard.press("Enter"); // Rename
  const title = member.getByRole("dialog", { name: "Rename chat" }).getByLabel("Chat title");
  await expect(title).toBeFocused();
  await title.fill("Packing list for Brittany");
  await member.keyboard.press("Enter");
  await expect(chatLink(member, "Packing list for Brittany")).toBeVisible();
  await expect(menuOf("Packing list for Brittany")).toBeFocused();

  // Archive: gone from the list, shown in Archived, restored from there.
  await menuOf("Tidal calendar for Brest").focus();
  await member.keyboard.press("Enter");
  await menu.getByRole("menuitem", { name: "Archive" }).focus();
  await member.keyboard.press("Enter");
  await expect(chatLink(member, "Tidal calendar for Brest")).toHaveCount(0);
  await expect(search).toBeFocused();
  await sidebar(member).getByRole("button", { name: "Archived" }).click();
  const archived = sidebar(member).getByRole("navigation", { name: "Archived chats" });
  await expect(archived.getByRole("link")).toHaveCount(1);
  await expect(archived.getByRole("link", { name: "Tidal calendar for Brest" })).toBeVisible();
  await check("archived view");
  await menuOf("Tidal calendar for Brest").click();
  await menu.getByRole("menuitem", { name: "Unarchive" }).click();
  await expect(sidebar(member)).toContainText("No archived chats.");
  await sidebar(member).getByRole("button", { name: "All chats" }).click();
  await expect(chatLink(member, "Tidal calendar for Brest")).toBeVisible();

  // Delete, behind a confirmation; the chat is gone for good.
  await menuOf("Sourdough starter notes").click();
  await menu.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = member.getByRole("alertdialog", { name: "Delete “Sourdough starter notes”?" });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await check("delete confirmation");
  await confirm.getByRole("button", { name: "Delete chat" }).click();
  await expect(chatLink(member, "Sourdough starter notes")).toHaveCount(0);
  expect(await storedCount(member)).toBe(3);

  // Another member's chats are not theirs to change: 404, and nothing changes.
  const mine = ((await (await member.request.get("/api/chats")).json()) as { chats: { id: string; title: string }[] }).chats;
  const adminOrigin = new URL(page.url()).origin;
  for (const [method, data] of [
    ["PATCH", { pinned: false }],
    ["PATCH", { archived: true }],
    ["PATCH", { title: "Mine now" }],
    ["DELETE", undefined],
  ] as const) {
    const res = await page.request.fetch(`/api/chat/${mine[0].id}`, { method, headers: { origin: adminOrigin }, data });
    expect(res.status()).toBe(404);
  }
  expect((await member.request.patch(`/api/chat/${mine[0].id}`, { headers: { origin }, data: { pinned: "yes" } })).status()).toBe(400);
  expect((await member.request.get("/api/chats?view=everything")).status()).toBe(400);
  expect(((await (await member.request.get("/api/chats")).json()) as { chats: { title: string }[] }).chats.map((c) => c.title)).toEqual(
    mine.map((c) => c.title),
  );

  expect(violations).toEqual([]);
  await context.close();
});
