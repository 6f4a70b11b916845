// Projects, and the export and retention buttons, in Chromium: the admin creates a project with
// instructions from the sidebar, starts a chat in it (the model answers by those instructions), finds
// the chat on the project's page, exports it as Markdown and JSON, moves it out of the project; on the
// members page saves a retention of 30 days (kept after a reload) and downloads a member's chats.
// The form, the project page, the move dialog and the members page are axe-checked in light and dark.
import fs from "node:fs";
import { expect, test, type Download, type Page } from "@playwright/test";
import { THEMES, applyTheme, violations } from "./axe";
import { ADMIN, answer, createInvite, joinWithNewAccount, send, storedChat } from "./helpers";
import { inOwnTeam } from "./own-team";

test.use({ storageState: inOwnTeam });

/** Axe on the page as it is now, in both themes (reloaded in each). */
async function axeBothThemes(page: Page, ready: () => Promise<void>) {
  for (const theme of THEMES) {
    await applyTheme(page, theme);
    await page.reload();
    await ready();
    expect(await violations(page), theme).toEqual([]);
  }
}

const text = async (download: Download) => fs.readFileSync((await download.path())!, "utf8");

test("a project's instructions reach its chats; chats move in and out; export and retention work", async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Lighthouse ${Date.now()}`;

  // Create the project from the sidebar.
  await page.goto("/chat");
  const projects = page.getByRole("navigation", { name: "Projects" });
  await projects.getByRole("link", { name: "New project" }).click();
  await expect(page.getByRole("heading", { name: "New project", level: 1 })).toBeVisible();
  await axeBothThemes(page, () => expect(page.getByLabel("Name", { exact: true })).toBeVisible());
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Instructions").fill("Answer as the lighthouse keeper.");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/(?!new$)[A-Za-z0-9_-]+$/);
  const projectUrl = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("No chats in this project yet.")).toBeVisible();
  await expect(projects.getByRole("link", { name })).toBeVisible();
  await axeBothThemes(page, () => expect(page.getByRole("heading", { name, level: 1 })).toBeVisible());

  // A chat started in the project: the model gets the project's instructions.
  await page.getByRole("link", { name: "New chat in this project" }).click();
  await expect(page.getByRole("heading", { name: `New chat in ${name}`, level: 1 })).toBeVisible();
  await send(page, "Projects: who keeps the light");
  await page.waitForURL(/\/chat\/[a-z0-9]+$/);
  const chatId = page.url().split("/").pop()!;
  await expect(answer(page)).toContainText("The keeper of the light, at your service.");

  // Listed on the project's page.
  await page.goto(projectUrl);
  const chats = page.getByRole("list", { name: "Chats", exact: true });
  await expect(chats.locator(`a[href="/chat/${chatId}"]`)).toHaveCount(1);

  // Export as Markdown and as JSON from the chat's header: the files are named after the chat.
  await page.goto(`/chat/${chatId}`);
  await expect(answer(page)).toContainText("keeper of the light");
  const title = (await page.locator("header h1").textContent())!
    .replace(/[\\/:*?"<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [markdown] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown (.md)" }).click()]);
  expect(markdown.suggestedFilename()).toBe(`${title}.md`);
  expect(await text(markdown)).toContain("Projects: who keeps the light");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "JSON (.json)" }).click()]);
  expect(json.suggestedFilename()).toBe(`${title}.json`);
  expect(JSON.stringify(JSON.parse(await text(json)))).toContain("The keeper of the light, at your service.");

  // Move it out of the project.
  await page.getByRole("button", { name: "Move to project" }).click();
  const dialog = page.getByRole("dialog", { name: "Move to project" });
  await expect(dialog.getByLabel("Project")).toHaveValue(/.+/);
  expect(await violations(page)).toEqual([]);
  await dialog.getByLabel("Project").selectOption({ label: "No project" });
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.goto(projectUrl);
  await expect(page.getByText("No chats in this project yet.")).toBeVisible();

  // And back in: the next answer has the instructions again.
  await page.goto(`/chat/${chatId}`);
  await page.getByRole("button", { name: "Move to project" }).click();
  await dialog.getByLabel("Project").selectOption({ label: name });
  await dialog.getByRole("button", { name: "Move", exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.goto(projectUrl);
  await expect(page.getByRole("list", { name: "Chats", exact: true }).locator(`a[href="/chat/${chatId}"]`)).toHaveCount(1);
});

test("admins set the team's retention and export a member's chats from the members page", async ({ page }) => {
  test.setTimeout(90_000);
  // A chat of the admin's own, for the export to hold (this test needs no other test's chats).
  await storedChat(page);
  await send(page, "Retention: a chat the export keeps");
  await expect(answer(page)).toContainText("Kept in the member's export.");

  await page.goto("/admin/members");
  const retention = page.getByRole("region", { name: "Retention" });
  await expect(retention.getByText("Now: Chats are kept for ever.")).toBeVisible();
  await axeBothThemes(page, () => expect(page.getByRole("heading", { name: "Retention" })).toBeVisible());

  await retention.getByLabel("Keep chats for", { exact: true }).check();
  await retention.getByLabel("Number of days").fill("30");
  await retention.getByRole("button", { name: "Save retention" }).click();
  await expect(retention.getByRole("status")).toHaveText("Saved. Chats untouched for 30 days are deleted, with everything in them.");
  await page.reload();
  await expect(retention.getByLabel("Number of days")).toHaveValue("30");
  await expect(retention.getByText("Now: Chats untouched for 30 days")).toBeVisible();
  const saved = await page.request.get(`/api/teams/${await teamId(page)}/retention`);
  expect(await saved.json()).toEqual({ days: 30 });

  // Back to for ever (the other specs share this data directory).
  await retention.getByLabel("Keep chats for ever").check();
  await retention.getByRole("button", { name: "Save retention" }).click();
  await expect(retention.getByRole("status")).toHaveText("Saved. Chats are kept for ever.");

  // A member's chats as one JSON download.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: `Export chats of ${ADMIN.name}` }).click()]);
  expect(download.suggestedFilename()).toMatch(/^member-.+-chats\.json$/);
  const body = JSON.parse(await text(download)) as { chats: unknown[] };
  expect(Array.isArray(body.chats)).toBe(true);
  expect(JSON.stringify(body)).toContain("Retention: a chat the export keeps");
  expect(JSON.stringify(body)).toContain("Kept in the member's export.");
});

test("a shared project shows its chats to another member read-only; a personal one is 404 to them", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const { page: member, context } = await joinWithNewAccount(browser, await createInvite(page));
  const origin = new URL(page.url()).origin;
  const shared = `Team handbook ${Date.now()}`;
  // The admin's shared project (through the form) with a chat in it, and a personal one (through the API).
  await page.goto("/projects/new");
  await page.getByLabel("Name", { exact: true }).fill(shared);
  await page.getByLabel("Instructions").fill("Answer as the lighthouse keeper.");
  await page.getByLabel(/Shared with the team/).check();
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/(?!new$)[A-Za-z0-9_-]+$/);
  const sharedId = page.url().split("/").pop()!;
  await page.getByRole("link", { name: "New chat in this project" }).click();
  await send(page, "Projects: who keeps the light");
  await page.waitForURL(/\/chat\/[a-z0-9]+$/);
  const chatId = page.url().split("/").pop()!;
  await expect(answer(page)).toContainText("The keeper of the light");
  const personal = await page.request.post("/api/projects", { headers: { origin }, data: { name: "Private notes" } });
  expect(personal.status()).toBe(201);
  const personalId = ((await personal.json()) as { id: string }).id;
  // Bad input through the API: 400.
  expect((await page.request.post("/api/projects", { headers: { origin }, data: { name: "" } })).status()).toBe(400);
  expect((await page.request.patch(`/api/chat/${chatId}`, { headers: { origin }, data: { projectId: "not an id!" } })).status()).toBe(400);

  // The member finds the shared project in the sidebar, its chat on its page, and reads the chat without a composer.
  await member.goto("/chat");
  await member.getByRole("navigation", { name: "Projects" }).getByRole("link", { name: shared }).click();
  await expect(member.getByRole("heading", { name: shared, level: 1 })).toBeVisible();
  await expect(member.getByRole("link", { name: "Edit project" })).toHaveCount(0);
  await member.getByRole("list", { name: "Chats", exact: true }).locator(`a[href="/chat/${chatId}"]`).click();
  await expect(member.getByText("The keeper of the light")).toBeVisible();
  await expect(member.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  // They may not change it (403), nor see the admin's personal project or file chats in it (404).
  expect((await member.request.patch(`/api/projects/${sharedId}`, { headers: { origin }, data: { name: "Mine" } })).status()).toBe(403);
  expect((await member.request.get(`/api/projects/${personalId}`)).status()).toBe(404);
  expect((await member.request.post("/api/chats", { headers: { origin }, data: { projectId: personalId } })).status()).toBe(404);
  expect((await member.request.patch(`/api/chat/${chatId}`, { headers: { origin }, data: { projectId: null } })).status()).toBe(404);
  expect((await member.request.get("/api/projects/forged-id")).status()).toBe(404);
  await context.close();
});

/** The current team's id, from the export link's address. */
async function teamId(page: Page): Promise<string> {
  const href = await page.getByRole("link", { name: `Export chats of ${ADMIN.name}` }).getAttribute("href");
  return href!.split("/")[3];
}
