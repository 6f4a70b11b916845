// MCP beyond tools, in the browser, against our MCP server (e2e/mcp-test-server.mjs): a server's
// question during a call is a form in the tool's block that survives a reload and is checked on the
// server; a resource attached with "Attach a server resource" reaches the model; a prompt picked with "/" fills the
// message box; an image a tool returns shows in its block.
import type { ChildProcess } from "node:child_process";
import { expect, test, type Page } from "@playwright/test";
import { addMcpServer, chatWithServerTools, answer, hydrated, send, testMcpConnection } from "./helpers";
import { inOwnTeam } from "./own-team";
import { startMcpTestServer } from "./mcp-test-process";

let mcpUrl = "";
const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}`;
let server: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

test.beforeAll(async () => {
  ({ process: server, url: mcpUrl } = await startMcpTestServer());
});
test.afterAll(async () => {
  server?.kill("SIGKILL");
});

const chatWithTools = (page: Page) => chatWithServerTools(page, "extras");

const ended = (page: Page) => expect(page.getByRole("button", { name: "Send", exact: true })).toBeVisible({ timeout: 20_000 });

test("an admin adds the server", async ({ page }) => {
  await addMcpServer(page, "extras", mcpUrl);
  const tools = await testMcpConnection(page);
  for (const name of ["ask", "image", "weather"]) await expect(tools).toContainText(name);
});

test("a server's question is a form in the tool's block: it survives a reload, bad answers are refused, the answer reaches the server", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Extras: ask me");
  await answer(page).getByRole("button", { name: "Approve", exact: true }).click();
  const form = answer(page).getByRole("group", { name: "The server asks" });
  await expect(form).toContainText("Tell me about you.");
  await expect(answer(page).getByText("Waiting for your answer")).toBeVisible();

  await page.reload(); // the question is stored with the block: it is still there
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Count", { exact: true })).toHaveValue("3"); // the schema's default
  await expect(form.getByLabel("Colour", { exact: true })).toHaveValue("green");
  await expect(form.locator("[data-secret-warning]")).toHaveCount(1); // "Account password"
  await expect(form.getByLabel("Account password")).toBeVisible();
  await hydrated(form.getByRole("checkbox", { name: "Beta" }));

  await form.getByLabel("Name (required)").fill("Ada");
  await form.getByLabel("Email", { exact: true }).fill("not-an-email");
  await form.getByRole("checkbox", { name: "Beta" }).check();
  await form.getByLabel("Size", { exact: true }).selectOption({ label: "Large" });
  // Submitted from the keyboard: the chat keeps its end in view, so the form can move between the moment
  // a mouse click is aimed and the moment it lands (a run with two workers on a busy machine lost one).
  await form.getByRole("button", { name: "Submit" }).press("Enter");
  await expect(form.getByText("Enter an email address.")).toBeVisible(); // checked on the server
  await form.getByLabel("Email", { exact: true }).fill("ada@example.com");
  await form.getByRole("button", { name: "Submit" }).press("Enter");

  await expect(answer(page)).toContainText("Thanks for the answer.", { timeout: 20_000 });
  await ended(page);
  // The page followed the answer after the reload from its replay: no error on the way (a replay without
  // the answer's earlier parts failed with "No tool invocation found").
  await expect(page.getByRole("alert").filter({ hasText: /\S/ })).toHaveCount(0); // (Next.js keeps an empty one for route changes)
  const result = answer(page).locator('[data-tool-name="extras__ask"]');
  await expect(result).toContainText("Answer: accept");
  for (const piece of ['"name":"Ada"', '"email":"ada@example.com"', '"count":3', '"colour":"green"', '"size":"l"', '"tags":["a","b"]'])
    await expect(result).toContainText(piece);
});

test("a resource attached with Attach goes with the message as a chip and reaches the model", async ({ page }) => {
  await chatWithTools(page);
  await page.getByRole("button", { name: "Attach a server resource" }).click();
  const menu = page.getByRole("dialog", { name: "Attach a resource" });
  await menu.getByRole("button", { name: /^extras/ }).click();
  await menu.getByRole("button", { name: /Read me/ }).click();
  await expect(page.getByRole("list", { name: "Attached resources" })).toContainText("extras · Read me");
  await send(page, "Extras: what is the code word");
  await expect(answer(page)).toContainText("The code word is in the attachment.");
  await ended(page);
  const question = page.getByRole("article", { name: "Your message" }).last();
  await page.reload();
  await question.getByText("test://readme").click(); // the chip opens to what the model received
  await expect(question).toContainText("The launch code word is PELICAN.");
  const journal = (await (await fetch(`${UPSTREAM}/__aimock/journal`)).json()) as unknown[];
  // The answer's request carries the resource; the chat's title request (which may arrive after it) carries only the question.
  const asked = journal.map((e) => JSON.stringify(e)).filter((e) => e.includes("Extras: what is the code word"));
  expect(asked.filter((e) => e.includes("PELICAN"))).not.toHaveLength(0);
});

test("typing / lists the servers' prompts; one with arguments fills the message box", async ({ page }) => {
  await chatWithTools(page);
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("/rev");
  const prompts = page.getByRole("dialog", { name: "Prompts" });
  await prompts.getByRole("option", { name: /Review code/ }).click();
  await prompts.getByLabel(/^language/).fill("Rust");
  await prompts.getByRole("button", { name: "Insert prompt" }).click();
  await expect(box).toHaveValue("Review this Rust code.");
  await expect(prompts).toHaveCount(0);
});

test("an image a tool returns shows in its block", async ({ page }) => {
  await chatWithTools(page);
  await send(page, "Extras: show the dot");
  await answer(page).getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(page)).toContainText("That was a red dot.");
  const img = answer(page).locator('[data-tool-name="extras__image"] img[alt="Image returned by the tool"]');
  await expect(img).toBeVisible();
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(4);
});
