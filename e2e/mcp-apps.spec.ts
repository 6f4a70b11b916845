// MCP Apps in the browser, against our 2026-07-28 MCP server (e2e/mcp-server-2026.mjs on the SDK v2 server
// package; the 2025-11-25 one serves the same view in the unit tests; view in e2e/mcp-app-page.mjs):
// the model calls a tool with a ui:// view, it is approved, and the view shows inside the tool block in
// a sandboxed frame with the call's input and result. The view cannot reach Parley (the parent's
// document, the cookies, storage, a fetch with credentials: it prints what happened). Its requests go
// through the host: a tool call of a tool that asks for approval waits for the member's yes on a card
// under the view (and a no reaches the view, with the reason shown under it too), a link opens only
// when the member confirms, a message is sent only when the member confirms. Switching to dark mode
// reaches a view already on screen. A reload shows it again; its page carries its own sandbox policy;
// forged ids are 404; the page passes axe in light and dark.
import type { ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { addMcpServer, answer, chatWithServerTools, send, testMcpConnection } from "./helpers";
import { inOwnTeam } from "./own-team";
import { applyTheme, THEMES, violations } from "./axe";
import { startMcpTestServer } from "./mcp-test-process";

let server: ChildProcess | undefined;
let serverUrl = "";
let chatId = "";

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

test.beforeAll(async () => {
  ({ process: server, url: serverUrl } = await startMcpTestServer(0, "2026-07-28"));
});
test.afterAll(async () => {
  server?.kill("SIGKILL");
});

const view = (page: Page) => answer(page).locator('[data-tool-name="apps__show_card"] iframe[title$=" app"]');
const card = (page: Page) => page.locator('[data-tool-name="apps__show_card"] iframe[title$=" app"]').first().contentFrame();

test("an admin adds the server; Test connection finds 2026-07-28; the tool with a view is listed, its app-only tool too", async ({ page }) => {
  await addMcpServer(page, "apps", serverUrl);
  const tools = await testMcpConnection(page);
  await expect(page.getByRole("status").filter({ hasText: "Connected to" })).toContainText("parley-test-2026 1.0.0 (MCP 2026-07-28)");
  await expect(tools).toContainText("show_card");
  await expect(tools).toContainText("card_stamp");
});

test("the tool's view shows in its block, sandboxed, with the call's input and result; it cannot reach Parley", async ({ page }) => {
  chatId = await chatWithServerTools(page, "apps");
  await send(page, "Apps: show the card");
  await answer(page).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(page)).toContainText("Here is your card.", { timeout: 20_000 });

  await expect(view(page)).toHaveAttribute("sandbox", "allow-scripts");
  const frame = card(page);
  await expect(frame.locator("#host")).toHaveText("Host: Parley, theme light");
  await expect(frame.locator("#input")).toHaveText('Input: {"text":"hello from the model"}');
  await expect(frame.locator("#result")).toHaveText("Result: Card: hello from the model");
  await expect(answer(page).getByText("Loading the app…")).toHaveCount(0);
  // The view tried to reach Parley as it loaded: the parent's document, cookies, storage and a fetch of
  // /api/chats with credentials all failed.
  const probe = frame.locator("#probe");
  await expect(probe).toContainText("fetch:");
  await expect(probe).toHaveText("Probe: parent.document: blocked; cookie: blocked; storage: blocked; fetch: blocked");
  // The view reported its height (size-changed): the frame follows it, within bounds.
  await expect.poll(async () => (await view(page).boundingBox())?.height ?? 0).not.toBe(200);
  const height = (await view(page).boundingBox())!.height;
  expect(height).toBeGreaterThanOrEqual(60);
  expect(height).toBeLessThanOrEqual(722);
});

test("the view's requests go through Parley: a tool call under the approval policy, a link and a message only when confirmed", async ({ page }) => {
  await page.goto(`/chat/${chatId}`);
  const frame = card(page);
  await expect(frame.locator("#result")).toHaveText("Result: Card: hello from the model"); // after a reload, read again
  await expect(frame.locator("#probe")).toContainText("fetch:");
  await expect(frame.locator("#host")).toHaveText("Host: Parley, theme light");
  // The view's buttons are pressed from the keyboard. Every line the view writes makes it report a new
  // height, the frame follows and the chat keeps its end in view, so the frame can move between the
  // moment a mouse click is aimed (the button is still within the frame) and the moment it lands: two
  // fresh-clone runs lost the click this way. A key press goes to the focused button wherever it is. The
  // host's own buttons under the view (Approve, Deny, Cancel, Send message) move with it too (a run with
  // three workers lost "Send message" just after the view had written its previous reply): pressed alike.

  // New tools ask before they run: the member is asked under the view, and the view's call waits.
  await frame.getByRole("button", { name: "Call a tool" }).press("Enter");
  const approval = page.getByRole("group", { name: "The app asks to run a tool" });
  await expect(approval).toContainText("card_stamp");
  await expect(approval).toContainText('"note": "from the app"');
  await expect(frame.locator("#reply")).toHaveText("");
  await approval.getByRole("button", { name: "Approve" }).press("Enter");
  await expect(frame.locator("#reply")).toHaveText("tool: Stamped: from the app");
  await expect(approval).toHaveCount(0);
  // Declined: the view hears no.
  await frame.getByRole("button", { name: "Call a tool" }).press("Enter");
  await approval.getByRole("button", { name: "Deny" }).press("Enter");
  await expect(frame.locator("#reply")).toHaveText("tool: error You declined “card_stamp”.");

  await frame.getByRole("button", { name: "Open a link" }).press("Enter");
  const link = page.getByRole("group", { name: "The app asks to open a link" });
  await expect(link).toContainText("https://example.com/from-the-app");
  await link.getByRole("button", { name: "Cancel" }).press("Enter");
  await expect(frame.locator("#reply")).toHaveText("link: refused");
  await expect(link).toHaveCount(0);

  // The member asks something else while the view's message waits: while that answer streams, "Send
  // message" says why it cannot go yet and the view hears nothing; once the answer ends, it goes.
  await frame.getByRole("button", { name: "Send a message" }).press("Enter");
  const message = page.getByRole("group", { name: "The app asks to send a message" });
  await expect(message).toContainText("Apps: the card says hello");
  await send(page, "Apps: meanwhile, a slow aside");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeVisible();
  await message.getByRole("button", { name: "Send message" }).press("Enter");
  await expect(message.getByRole("status")).toHaveText("The chat is still answering. Send the message once the answer has ended.");
  await expect(frame.locator("#reply")).toHaveText("link: refused");
  await expect(answer(page)).toContainText("An aside, written slowly.", { timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible();
  await message.getByRole("button", { name: "Send message" }).press("Enter");
  await expect(frame.locator("#reply")).toHaveText("message: sent");
  await expect(answer(page)).toContainText("The card's message arrived.", { timeout: 20_000 });
  await expect(page.getByRole("article", { name: "Your message" }).last()).toContainText("Apps: the card says hello");
});

test("switching to dark mode reaches a view already on screen, and back", async ({ page }) => {
  await page.goto(`/chat/${chatId}`);
  const frame = card(page);
  await expect(frame.locator("#host")).toHaveText("Host: Parley, theme light");
  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  await expect(frame.locator("#host")).toHaveText("Host: Parley, theme dark");
  await page.getByRole("button", { name: "Toggle dark mode" }).click();
  await expect(frame.locator("#host")).toHaveText("Host: Parley, theme light");
});

for (const theme of THEMES) {
  test(`the chat with a view passes axe (${theme})`, async ({ page }) => {
    test.setTimeout(60_000); // axe over the whole chat page takes a while on a busy machine
    await applyTheme(page, theme);
    await page.goto(`/chat/${chatId}`);
    await expect(card(page).locator("#result")).toHaveText("Result: Card: hello from the model");
    // Parley's page, the view's frame included (its title); the view's own page is its server's.
    expect(await violations(page, { exclude: "iframe[title$=' app']" })).toEqual([]);
  });
}

test("the view's page carries its own sandbox policy; forged ids are 404; a view that cannot be read shows an error", async ({ page }) => {
  await page.goto(`/chat/${chatId}`);
  test.setTimeout(60_000);
  const frame = page.locator('[data-tool-name="apps__show_card"] iframe[title$=" app"]').first();
  // The frame gets its address once the block has mounted.
  await expect(frame).toHaveAttribute("src", new RegExp(`^/api/chat/${chatId}/app\\?call=`));
  const src = (await frame.getAttribute("src"))!;
  const res = await page.request.get(src);
  expect(res.status()).toBe(200);
  const h = res.headers();
  expect(h["content-type"]).toContain("text/html");
  expect(h["content-security-policy"]).toContain("sandbox allow-scripts");
  expect(h["content-security-policy"]).toContain("frame-ancestors 'self'");
  expect(h["content-security-policy"]).toContain("default-src 'none'");
  expect(h["x-frame-options"]).toBeUndefined();
  expect((await page.request.get(`/api/chat/${chatId}/app?call=call_forged`)).status()).toBe(404);
  expect((await page.request.get(`/api/chat/zzzzzzzzzzzzzzzzzzzzzzzzz/app?call=x`)).status()).toBe(404);
  expect((await page.request.get(`/api/chat/${chatId}/app`)).status()).toBe(400);
  // Every other API response keeps its policy and refuses framing.
  const other = await page.request.get(`/api/chat/${chatId}/messages`);
  expect(other.headers()["x-frame-options"]).toBe("DENY");
  expect(other.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

  // The server turned off: the block says the app could not be shown (and the rest of the chat works).
  server?.kill("SIGKILL");
  await page.reload();
  await expect(page.locator("[data-app-error]").first()).toContainText("could not give this app", { timeout: 30_000 });
});
