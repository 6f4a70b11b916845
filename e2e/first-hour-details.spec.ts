// The small things a new team notices in its first hour, in the browser: a chat's title names its
// tab, its export file and its options button; a tool's small image shows at its size; a picked image
// shows a thumbnail before sending; "Attach" and "Add files" say what each adds; the sidebar's search
// offers to search the messages; the MCP server page drops its "Test the connection" hint once the
// test passed, and each tool has one control for whether it is offered.
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { addMcpServer, answer, chatWithServerTools, ensureMcpServer, newChat, send, storedChat, testMcpConnection } from "./helpers";
import { ensureFileTeam, inOwnTeam } from "./own-team";
import { startMcpTestServer } from "./mcp-test-process";

let mcpUrl = "";
let server: ChildProcess | undefined;

test.use({ storageState: inOwnTeam, viewport: { width: 1280, height: 860 } });

// A 4×4 red PNG, as the test server's image tool returns it.
const RED_DOT = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==", "base64");

test.beforeAll(async ({ browser }) => {
  ({ process: server, url: mcpUrl } = await startMcpTestServer());
  await ensureFileTeam(browser);
  await ensureMcpServer(browser, "details", mcpUrl);
});
test.afterAll(async () => {
  server?.kill("SIGKILL");
});

test("the server page drops its 'Test the connection' hint after a good test; a tool has one control for being offered", async ({ page }) => {
  await addMcpServer(page, "details added", mcpUrl);
  const hint = page.getByText("Test the connection to list its tools.");
  await expect(hint).toBeVisible();
  const tools = await testMcpConnection(page);
  await expect(tools).toContainText("echo");
  await expect(page.getByRole("status").filter({ hasText: "Connected to" })).toBeVisible();
  await expect(hint).toHaveCount(0);

  const echo = tools.locator('[data-tool="echo"]');
  await expect(echo.getByRole("checkbox")).toHaveCount(0); // no tick box beside "Never offer"
  const policy = echo.getByLabel("Approval policy of echo");
  await expect(policy.locator("option", { hasText: "Never offer" })).toHaveCount(1);
});

test("a chat's title names its browser tab, its export file and its options button in the sidebar", async ({ page }) => {
  const id = await storedChat(page);
  const title = 'Plans: Q3/Q4 "draft"';
  const res = await page.request.patch(`/api/chat/${id}`, { headers: { origin: new URL(page.url()).origin }, data: { title } });
  expect(res.ok()).toBe(true);
  await page.reload();
  await expect(page).toHaveTitle(`${title} · Parley`);
  await expect(page.getByRole("navigation").getByRole("button", { name: `Chat options for ${title}`, exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Export" }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Markdown (.md)" }).click()]);
  expect(download.suggestedFilename()).toBe("Plans Q3 Q4 draft.md");

  // Renamed in the header: the tab follows.
  await page.getByRole("button", { name: "Rename chat" }).click();
  await page.getByLabel("Chat title").fill("Budget review");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page).toHaveTitle("Budget review · Parley");
});

test("a tool's small image shows at its own size, not stretched to the column", async ({ page }) => {
  await chatWithServerTools(page, "details");
  await send(page, "Details: show the dot");
  await answer(page).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(page)).toContainText("That was a red dot.");
  const img = answer(page).locator('[data-tool-name="details__image"] img[alt="Image returned by the tool"]');
  await expect(img).toBeVisible();
  const size = await img.evaluate((i: HTMLImageElement) => ({ natural: i.naturalWidth, shown: i.getBoundingClientRect().width }));
  expect(size).toEqual({ natural: 4, shown: 4 });
});

test("a picked image shows a thumbnail before it is sent", async ({ page }) => {
  await newChat(page);
  await page.locator('input[type="file"]').setInputFiles({ name: "dot.png", mimeType: "image/png", buffer: RED_DOT });
  const thumb = page.getByRole("list", { name: "Files to send" }).getByRole("img", { name: "dot.png" });
  await expect(thumb).toBeVisible();
  expect(await thumb.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(4);
});

test("the composer's two ways to add something say what each adds", async ({ page }) => {
  await newChat(page);
  await expect(page.getByRole("button", { name: "Add files", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Attach a server resource", exact: true })).toBeVisible();
});

test("the sidebar's Search chats offers to search the messages for the words typed", async ({ page }) => {
  // Typed while the page's scripts are still on their way (held here until the words are in the box):
  // the box keeps them once the page is interactive, and the offer follows.
  let release!: () => void;
  const scriptsMayGo = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/**/*.js", async (route) => {
    await scriptsMayGo;
    await route.continue();
  });
  await page.goto("/chat", { waitUntil: "commit" });
  const box = page.getByRole("searchbox", { name: "Search chats" });
  await box.fill("pelican wings");
  release();
  await expect(page.getByRole("heading", { name: "New chat", level: 1 })).toBeVisible();
  await expect(box).toHaveValue("pelican wings");
  const link = page.getByRole("link", { name: "Search messages for “pelican wings”" });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page).toHaveURL(/\/search\?q=pelican\+wings$/);
  await expect(page.getByRole("heading", { name: "Search messages", level: 1 })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search in messages" })).toHaveValue("pelican wings");
});
