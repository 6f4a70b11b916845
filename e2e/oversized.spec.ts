// Oversized outputs in the browser: an MCP tool returning 3 million characters and a model writing
// 3 million characters. Each is cut to what the server keeps (PARLEY_MAX_TOOL_RESULT_CHARS and
// PARLEY_MAX_ANSWER_CHARS, 1,000,000 by default) with a visible note; the model is told a result
// was cut; the chat page loads with them and shows them collapsed with their size.
import type { ChildProcess } from "node:child_process";
import { expect, test } from "@playwright/test";
import { addMcpServer, answer, newChat, send, testMcpConnection } from "./helpers";
import { inOwnTeam } from "./own-team";
import { setUpstreamFixtures } from "./upstream-fixtures";
import { startMcpTestServer } from "./mcp-test-process";

const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}`;
let server: ChildProcess | undefined;
let serverUrl = "";

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

test.beforeAll(async () => {
  // Our test MCP server (its `huge` tool returns a result of any size) on a free loopback port.
  ({ process: server, url: serverUrl } = await startMcpTestServer());
});
test.afterAll(async () => {
  server?.kill("SIGKILL");
  await setUpstreamFixtures(UPSTREAM); // the specs after this one get the files' fixtures back
});

/** Puts fixtures in front of the running upstream's own (its list ends with a catch-all). */
const script = (fixtures: object[]) => setUpstreamFixtures(UPSTREAM, fixtures);

test("a tool result of 3 million characters is cut, says so, and the model is told", async ({ page }) => {
  await addMcpServer(page, "big", serverUrl);
  await expect(await testMcpConnection(page)).toContainText("huge");

  await newChat(page);
  await page.getByRole("button", { name: /^Tools/ }).click();
  await page.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use big", exact: true }).check();
  await expect(page.getByRole("button", { name: /^Tools \(\d+\)/ })).toBeVisible();
  await page.getByRole("button", { name: /^Tools/ }).click();

  await script([
    {
      match: { userMessage: "Fetch the huge report", hasToolResult: false },
      response: { toolCalls: [{ name: "big__huge", arguments: JSON.stringify({ chars: 3_000_000 }) }] },
    },
    // Answers only when the tool result the model got ends with the marker saying it was cut.
    {
      match: { userMessage: "Fetch the huge report", hasToolResult: true, toolResultContains: "[TRUNCATED: the tool returned 3,000,0" },
      response: { content: "I read the first part of the report." },
    },
  ]);
  await send(page, "Fetch the huge report");
  // A new server's tools ask first, whatever they say of themselves.
  await answer(page).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(page)).toContainText("I read the first part of the report.", { timeout: 20_000 });
  const check = async () => {
    const block = answer(page).locator('[data-tool-name="big__huge"]');
    await expect(block.getByRole("note")).toContainText(
      "Truncated: the tool returned 3.0 million characters; the first 1.0 million characters are shown and stored",
    );
    await expect(block.getByRole("note")).toContainText("The model received this first part with a note that the result was cut.");
    // The text is shown collapsed with its size, and what is kept is within the limit.
    const kept = Number(await block.locator("[data-large-output]").getAttribute("data-large-output"));
    expect(kept).toBeGreaterThan(900_000);
    expect(kept).toBeLessThanOrEqual(1_000_000);
    await block.getByRole("button", { name: "Show" }).click();
    await expect(block.locator("pre").last()).toContainText("START All work and no play");
  };
  await check();
  // The model received about 100,000 characters of the result (the journal keeps a long body's size only), not 3 million.
  const journal = (await (await fetch(`${UPSTREAM}/__aimock/journal`)).json()) as { body: { originalByteSize?: number; input?: unknown } }[];
  const sizes = journal
    .filter((e) => JSON.stringify(e).includes("Fetch the huge report") || e.body.originalByteSize)
    .map((e) => e.body.originalByteSize ?? JSON.stringify(e.body).length);
  expect(Math.max(...sizes)).toBeGreaterThan(100_000);
  expect(Math.max(...sizes)).toBeLessThan(150_000);
  // The stored block is the same after a reload.
  await page.reload();
  await check();
});

test("an answer of 3 million characters is cut with a notice, and the chat page loads with it", async ({ page }) => {
  const huge = "Over and over the same long sentence goes. ".repeat(70_000); // ~3 MB
  await script([{ match: { userMessage: "Write far too much" }, response: { content: huge }, chunkSize: 100_000 }]);
  await newChat(page);
  await send(page, "Write far too much");
  const check = async () => {
    await expect(answer(page)).toContainText("This answer was cut at 1,000,000 characters", { timeout: 20_000 });
    await expect(answer(page)).toContainText("Long answer: 1.0 million characters");
    await expect(answer(page).locator("[data-large-output]")).toHaveAttribute("data-large-output", "1000000");
  };
  await check();
  const res = await page.reload();
  expect(res?.status()).toBe(200);
  await check();
  await answer(page).getByRole("button", { name: "Show" }).click();
  await expect(answer(page).locator("pre")).toContainText("Over and over the same long sentence goes.");
});
