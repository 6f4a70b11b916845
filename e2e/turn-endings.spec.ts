// The ways a turn ends, walked in the browser against an MCP server of ours (e2e/mcp-test-server.mjs:
// tools that hang, fail, report slow progress, search and echo) and the scripted model
// (e2e/fixtures/turn-endings.json). After each ending the page is reloaded: every card shows its final
// face, and no spinner and no "Running" is left. Also: a refused decision (the card returns to
// Approve/Deny with the error), Approve clicked the instant the card appears (issue 22.7), the next
// message sent the moment an answer ends (21.1), two tabs deciding one call, and a card's name while
// its input still streams (21.4). Last, the MCP server's process is killed while a call runs (21.2):
// the card says ServerUnavailable long before the call timeout. A dead Parley process
// ("Interrupted") is covered by lib/turn/turn-endings.test.ts.
import type { ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { trustReadOnlyHints } from "./admin-steps";
import { addMcpServer, chatWithServerTools, answer, newChat, send, testMcpConnection } from "./helpers";
import { inOwnTeam } from "./own-team";
import { startMcpTestServer } from "./mcp-test-process";

let mcpUrl = "";
/** PARLEY_STEP_LIMIT of the e2e server (e2e/start-server.mjs). */
const STEP_LIMIT = 8;
let server: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

test.beforeAll(async () => {
  ({ process: server, url: mcpUrl } = await startMcpTestServer());
});
test.afterAll(() => {
  server?.kill("SIGKILL");
});

/** The card of a call waiting for approval, in the newest answer. */
const card = (page: Page, tool: string) => answer(page).getByRole("group", { name: `Approve faults · ${tool}?` });
/** A tool block of the newest answer. */
const block = (page: Page, tool: string) => answer(page).locator(`[data-tool-name="faults__${tool}"]`);

const chatWithTools = (page: Page) => chatWithServerTools(page, "faults");

/** The answer has ended (Send is back). */
async function ended(page: Page) {
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible({ timeout: 20_000 });
}

/** No card anywhere on the page is waiting or running. */
async function nothingRunning(page: Page) {
  await expect(page.locator('[data-tool-state="running"]')).toHaveCount(0);
  await expect(page.locator("[data-tool-name]").getByText("Running", { exact: true })).toHaveCount(0);
  await expect(page.getByText(/Approved by .*Running…/)).toHaveCount(0);
  await expect(page.locator("[data-tool-name] .animate-spin")).toHaveCount(0);
}

test("an admin adds the test server and its tools are listed", async ({ page }) => {
  await addMcpServer(page, "faults", mcpUrl);
  const tools = await testMcpConnection(page);
  for (const name of ["hang", "fail", "search", "slow_progress", "echo"]) await expect(tools).toContainText(name);
  // echo, marked read-only, runs without asking (the step-limit loop calls it STEP_LIMIT times); the rest ask.
  await trustReadOnlyHints(page);
});

test("stop while a tool runs: the card says 'Stopped', also after a reload", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Endings: allow the hang");
  // hang asks first (no read-only hint); "Always allow" runs it now and from now on.
  await card(page, "hang").getByRole("button", { name: "Always allow" }).click();
  await expect(block(page, "hang")).toHaveAttribute("data-tool-state", "running");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(block(page, "hang")).toHaveAttribute("data-tool-state", "aborted");
  await expect(block(page, "hang")).toContainText("Stopped while it ran");
  await ended(page);
  await page.reload();
  await expect(block(page, "hang")).toHaveAttribute("data-tool-state", "aborted");
  await expect(block(page, "hang")).toContainText("Stopped while it ran");
  await nothingRunning(page);
});

test("stop while one call waits for approval and another runs: 'Stopped before it ran' and 'Stopped'", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Endings: stop while one waits");
  await expect(card(page, "fail")).toBeVisible();
  await expect(block(page, "hang")).toHaveAttribute("data-tool-state", "running");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(block(page, "fail")).toContainText("Stopped before it ran");
  await expect(block(page, "hang")).toContainText("Stopped while it ran");
  await ended(page);
  await page.reload();
  await expect(block(page, "fail")).toHaveAttribute("data-tool-state", "aborted");
  await expect(block(page, "fail")).toContainText("Stopped before it ran");
  await expect(block(page, "hang")).toContainText("Stopped while it ran");
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await nothingRunning(page);
});

test("a new message while a call waits: the call is denied as superseded, also after a reload", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Endings: the search waits");
  await expect(card(page, "search")).toBeVisible();
  await ended(page);
  await send(page, "Endings: never mind");
  const search = page.locator('[data-tool-name="faults__search"]');
  await expect(search).toContainText(/Denied by .*Reason: superseded by a new message/);
  await expect(answer(page)).toContainText("All right, something else then.");
  await page.reload();
  await expect(search).toHaveAttribute("data-tool-state", "output-denied");
  await expect(search).toContainText(/Denied by .*Reason: superseded by a new message/);
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await nothingRunning(page);
});

test("the step limit: every call of the answer is done and the notice says why it stopped, also after a reload", async ({ page }) => {
  test.setTimeout(90_000);
  await chatWithTools(page);
  await send(page, "Endings: loop");
  await expect(answer(page)).toContainText("Step limit reached", { timeout: 60_000 });
  const echoes = answer(page).locator('[data-tool-name="faults__echo"]');
  // STEP_LIMIT steps, each one echo call.
  await expect(echoes).toHaveCount(STEP_LIMIT);
  await page.reload();
  await expect(answer(page)).toContainText("Step limit reached");
  await expect(echoes).toHaveCount(STEP_LIMIT);
  await expect(answer(page).locator('[data-tool-name="faults__echo"][data-tool-state="output-available"]')).toHaveCount(STEP_LIMIT);
  await nothingRunning(page);
});

test("the step limit counts approvals: a model asking at every step ends at the limit, visibly, with Continue", async ({ page }) => {
  test.setTimeout(120_000);
  await chatWithTools(page);
  await send(page, "Endings: ask at every step");
  const searches = answer(page).locator('[data-tool-name="faults__search"]');
  const done = answer(page).locator('[data-tool-name="faults__search"][data-tool-state="output-available"]');
  // Someone approves every call the model asks for: each Approve runs one and the model asks again.
  for (let approved = 1; approved < STEP_LIMIT; approved++) {
    await card(page, "search").getByRole("button", { name: "Approve", exact: true }).click();
    await expect(done).toHaveCount(approved, { timeout: 20_000 });
  }
  // The last step's call is not run and the answer says why; nothing waits for a decision any more.
  await expect(answer(page)).toContainText(`Step limit reached: the model used all ${STEP_LIMIT} steps of this answer`, { timeout: 20_000 });
  await ended(page);
  await expect(searches).toHaveCount(STEP_LIMIT);
  await expect(searches.last()).toContainText("Not run: the answer reached its step limit.");
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await page.reload();
  await expect(answer(page)).toContainText("Step limit reached");
  await expect(searches).toHaveCount(STEP_LIMIT);
  await expect(done).toHaveCount(STEP_LIMIT - 1);
  await nothingRunning(page);
  // Continue lets the same answer go on: the model asks again, and waits for a person.
  await answer(page).getByRole("button", { name: "Continue", exact: true }).click();
  await expect(card(page, "search")).toBeVisible();
  await expect(answer(page).getByRole("button", { name: "Continue", exact: true })).toBeHidden();
  await expect(page.getByRole("article", { name: "Assistant message" })).toHaveCount(1);
});

test("a refused decision: the card returns to Approve/Deny with the error visible, and deciding again works", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Endings: refused decision");
  await expect(card(page, "search")).toBeVisible();
  await ended(page);
  // The decision never reaches the server (the connection drops).
  await page.route("**/api/chat", (route) => (route.request().postData()?.includes('"approvals"') ? route.abort("connectionreset") : route.continue()));
  await card(page, "search").getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: /fetch|network|connection/i })).toBeVisible();
  await expect(card(page, "search").getByRole("button", { name: "Approve", exact: true })).toBeEnabled();
  await expect(block(page, "search")).toHaveAttribute("data-tool-state", "approval-requested");
  await nothingRunning(page);
  await page.unroute("**/api/chat");
  await card(page, "search").getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(page)).toContainText("Search done after the retry.");
  await expect(block(page, "search")).toContainText("About refused");
  await page.reload();
  await expect(block(page, "search")).toHaveAttribute("data-tool-state", "output-available");
  await nothingRunning(page);
});

test("Approve clicked the instant the card appears runs the call (5 trials, none stuck at 'Running…')", async ({ page }) => {
  test.setTimeout(150_000);
  let stuck = 0;
  for (let i = 0; i < 5; i++) {
    await chatWithTools(page);
    await send(page, "Endings: approve at once");
    // click() acts as soon as the button is visible and enabled: while the answer may still be stored.
    await card(page, "search").getByRole("button", { name: "Approve", exact: true }).click();
    try {
      await expect(answer(page)).toContainText("Search done at once.", { timeout: 15_000 });
      await expect(block(page, "search")).toHaveAttribute("data-tool-state", "output-available");
    } catch {
      stuck++;
    }
  }
  expect(stuck, "trials left at 'Approved by … Running…'").toBe(0);
  await page.reload();
  await nothingRunning(page);
});

test("the next message, sent the moment an answer ends, is answered: 5 times in the browser, 50 through the API", async ({ page }) => {
  test.setTimeout(150_000);
  await newChat(page);
  for (let i = 0; i < 5; i++) {
    await send(page, `Endings: next ${i}`);
    // Send comes back when the answer ends; the next message goes at once.
    await ended(page);
  }
  await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(5);
  await expect(page.getByRole("article", { name: "Assistant message" })).toHaveCount(5);
  for (const a of await page.getByRole("article", { name: "Assistant message" }).all()) await expect(a).toContainText("scripted model");
  await expect(page.getByText("still being written")).toHaveCount(0);

  const chatId = new URL(page.url()).pathname.split("/").pop()!;
  const origin = new URL(page.url()).origin;
  const statuses: number[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await page.request.post("/api/chat", {
      headers: { origin, "content-type": "application/json" },
      data: { id: chatId, message: { role: "user", parts: [{ type: "text", text: `Endings: api ${i}` }] } },
    });
    // text() returns once the response has ended: the next request goes at that instant.
    const body = await res.text();
    statuses.push(res.status());
    if (res.ok()) expect(body).toContain('"type":"finish"');
  }
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  await page.reload();
  await expect(page.getByRole("article", { name: "Assistant message" }).last()).toHaveAttribute("data-status", "done");
});

test("two tabs, one decision: the tab whose Approve lost says it was already decided and shows the result", async ({ page, context }) => {
  test.setTimeout(60_000);
  await chatWithTools(page);
  await send(page, "Endings: two tabs");
  await expect(card(page, "slow_progress")).toBeVisible();
  await ended(page);
  const other = await context.newPage();
  await other.goto(page.url());
  await card(other, "slow_progress").getByRole("button", { name: "Approve", exact: true }).click();
  await expect(block(other, "slow_progress")).toHaveAttribute("data-tool-state", "running");
  // The first tab still shows the card; its Approve loses.
  await card(page, "slow_progress").getByRole("button", { name: "Approve", exact: true }).click();
  await expect(page.getByText(/already decided/i)).toBeVisible({ timeout: 15_000 });
  await expect(block(page, "slow_progress")).toContainText("Finished 3 steps.", { timeout: 20_000 });
  await expect(answer(page)).toContainText("The slow tool finished.");
  await expect(page.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
  await nothingRunning(page);
  await expect(block(other, "slow_progress")).toContainText("Finished 3 steps.");
  await other.close();
});

test("a call whose input still streams shows the tool's name, not the model's", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Endings: slow input");
  const echo = block(page, "echo");
  await expect(echo).toContainText("Preparing");
  await expect(echo).toContainText("faults · echo");
  await expect(echo).not.toContainText("faults__echo");
  await expect(echo).toContainText("Preparing");
  await expect(answer(page)).toContainText("Echoed the long message.", { timeout: 20_000 });
  await expect(echo).toContainText("faults · echo");
});

// Last: it kills the test server.
test("the MCP server's process dies while a call runs: the card says ServerUnavailable at once, the model is told, the server shows Error", async ({
  page,
}) => {
  await chatWithTools(page);
  await send(page, "Endings: the server dies");
  await expect(block(page, "hang")).toHaveAttribute("data-tool-state", "running");
  server!.kill("SIGKILL");
  // The call timeout is the default 60 s; the drop is noticed within a few seconds.
  await expect(block(page, "hang")).toContainText("ServerUnavailable", { timeout: 15_000 });
  await expect(answer(page)).toContainText("The tool server went away.");
  await ended(page);
  await page.reload();
  await expect(block(page, "hang")).toContainText("ServerUnavailable");
  await nothingRunning(page);
  await page.goto("/admin/mcp");
  // Why: the dropped connection, or, when the pool has tried again since, that nothing answers there.
  await expect(page.locator('li[data-server="faults"]')).toContainText(/Error.*(the connection to MCP server "faults"|Unreachable: fetch failed)/);
});
