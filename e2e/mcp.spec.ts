// Team-shared MCP servers in the browser: an admin adds @modelcontextprotocol/server-everything (a real
// MCP server on loopback), tests the connection and sees its tools; a member picks the tools for a chat,
// asks, and sees the tool's result; a long-running tool shows a moving progress bar; when the server
// stops, the status shows the error and the chat still answers.
import { expect, test, type Page } from "@playwright/test";
import { trustReadOnlyHints } from "./admin-steps";
import { MCP_URL, startEverything, stopEverything } from "./everything";
import { addMcpServer, chooseOption, createInvite, joinWithNewAccount, newChat, send, storedChat, answer } from "./helpers";
import { inOwnTeam } from "./own-team";

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

test.beforeAll(startEverything);
test.afterAll(stopEverything);

let member: Page;

test("an admin adds server-everything, tests the connection and sees its tools", async ({ page }) => {
  await page.goto("/admin/mcp");
  await expect(page.getByRole("heading", { name: "MCP servers" })).toBeVisible();
  const form = page.getByRole("form", { name: "New MCP server" });

  // Bad input: field errors, nothing saved.
  await form.getByLabel("Name", { exact: true }).fill("everything");
  await form.getByLabel("URL", { exact: true }).fill("not a url");
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(form.getByText("Enter a valid http:// or https:// URL")).toBeVisible();
  await chooseOption(form.getByLabel("Transport", { exact: true }), /^stdio/);
  await form.getByLabel("Command", { exact: true }).fill("npx");
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(form.getByText("stdio servers are turned off on this instance")).toBeVisible();
  // Nothing saved (whatever servers other specs left in this team): no server of that name is listed.
  await expect(page.getByRole("link", { name: "everything", exact: true })).toHaveCount(0);

  await chooseOption(form.getByLabel("Transport", { exact: true }), "Streamable HTTP");
  await form.getByLabel("Name", { exact: true }).fill("everything");
  await form.getByLabel("URL", { exact: true }).fill(MCP_URL);
  await form.getByLabel("Bearer token", { exact: true }).fill("e2e-token-not-needed-1234");
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/\/admin\/mcp\/[a-z0-9]+\?created=1$/);
  await expect(page.getByText("Stored: ••••1234")).toBeVisible(); // masked, never shown again

  await page.getByRole("button", { name: "Test connection" }).click();
  const tools = page.getByRole("list", { name: "Tools", exact: true });
  await expect(tools).toContainText("echo");
  await expect(tools).toContainText("Echoes back the input string");
  await expect(tools).toContainText("trigger-long-running-operation");
  await expect(page.getByLabel("Status")).toContainText("Connected");
  // The stored tool list, each tool with its one control (its policy; "Never offer" switches it off).
  await page.reload();
  await expect(page.getByLabel("Approval policy of echo").locator("option:checked")).not.toHaveText("Never offer");
  // Tools ask unless the admin trusts what this server says of them (echo says it is read-only).
  await trustReadOnlyHints(page);

  // The audit log names the change without the token.
  await page.goto("/admin/audit");
  // (Earlier specs added and deleted servers of their own in this team: this one's row is named.)
  await expect(page.getByRole("row").filter({ hasText: "mcp.server.create" }).filter({ hasText: "everything" }).first()).toBeVisible();
  await expect(page.locator("body")).not.toContainText("e2e-token-not-needed");
});

test("a member picks the server's tools for a chat and sees the echo result", async ({ page, browser }) => {
  const url = await createInvite(page);
  ({ page: member } = await joinWithNewAccount(browser, url));
  // Members cannot change servers.
  expect((await member.goto("/admin/mcp"))?.status()).toBe(403);
  await newChat(member);
  // A new chat's tool choice is kept in the page and stored with its first message.
  await member.getByRole("button", { name: /^Tools/ }).click();
  const picker = member.getByRole("dialog", { name: "Tools for this chat" });
  await expect(picker).toContainText("everything");
  await picker.getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await expect(member.getByRole("button", { name: /^Tools \(\d+\)/ })).toBeVisible();
  await member.getByRole("button", { name: /^Tools/ }).click();

  await send(member, "Echo via MCP");
  const block = answer(member).locator('[data-tool-name="everything__echo"]');
  await expect(block).toContainText("Echo: hello from parley");
  await expect(block).toHaveAttribute("data-tool-state", "output-available");
  await expect(answer(member)).toContainText("The server echoed it back.");
  // The same after a reload (stored blocks).
  await member.reload();
  await expect(answer(member).locator('[data-tool-name="everything__echo"]')).toContainText("Echo: hello from parley");
});

test("a message sent the moment a tool is ticked uses it: sending waits for the choice to be saved", async () => {
  // A stored chat, whose choice is saved as it is ticked (a new chat's goes with its first message).
  await storedChat(member);
  // The save of the choice is held until the message has been sent (a slow network, made certain).
  let release!: () => void;
  const sent = new Promise<void>((resolve) => (release = resolve));
  await member.route("**/api/chat/*/tools", async (route) => {
    if (route.request().method() === "PUT") await sent;
    await route.continue();
  });
  await member.getByRole("button", { name: /^Tools/ }).click();
  await member.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await member.keyboard.press("Escape");
  await send(member, "Echo via MCP");
  release();
  await expect(answer(member).locator('[data-tool-name="everything__echo"]')).toContainText("Echo: hello from parley");
  await member.unroute("**/api/chat/*/tools");
});

test("a long-running tool shows a progress bar that moves", async () => {
  await send(member, "Run the long operation");
  const bar = answer(member).getByRole("progressbar", { name: "Tool progress" });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute("aria-valuemax", "8");
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  const first = Number(await bar.getAttribute("aria-valuenow"));
  await expect.poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 10_000 }).toBeGreaterThan(first);
  await expect(answer(member)).toContainText("Long running operation completed", { timeout: 15_000 });
  await expect(answer(member)).toContainText("The long operation finished.");
});

test("an admin makes echo ask first; the member approves, denies with a reason, and decides after a reload", async ({ page }) => {
  await page.goto("/admin/mcp");
  await page.locator('[data-server="everything"]').getByRole("link").first().click();
  await chooseOption(page.getByLabel("Approval policy of echo"), "Ask every time");
  await expect(page.getByText("Policy saved.")).toBeVisible();

  const card = () => answer(member).getByRole("group", { name: /^Approve everything · echo\?/ });
  const echo = () => answer(member).locator('[data-tool-name="everything__echo"]');

  // Pending -> Approve -> running -> result -> the model's final text.
  await send(member, "Echo needs approval");
  await expect(card()).toBeVisible();
  await expect(echo()).toContainText('"message": "approve me"');
  await expect(echo()).toHaveAttribute("data-tool-state", "approval-requested");
  await card().getByRole("button", { name: "Approve", exact: true }).click();
  await expect(echo()).toContainText("Echo: approve me");
  await expect(echo()).toContainText(/Approved by \S/); // who decided, on the result face
  await expect(answer(member)).toContainText("Echo done: approve me.");

  // Deny with a reason: nothing runs, the denial shows, the model answers, the next message works.
  await send(member, "Echo to be denied");
  await card().getByLabel("Reason for denying (optional)").fill("not today");
  await card().getByRole("button", { name: "Deny", exact: true }).click();
  await expect(echo()).toContainText(/Denied by .*Reason: not today/);
  await expect(echo()).not.toContainText("Echo: deny me");
  await expect(answer(member)).toContainText("Understood, no echo.");

  // A reload while the call waits shows the same card, and deciding then continues the answer.
  await send(member, "Echo after reload");
  await expect(card()).toBeVisible();
  await member.reload();
  await expect(card()).toBeVisible();
  await card().getByRole("button", { name: "Approve", exact: true }).click();
  await expect(echo()).toContainText("Echo: reload me");
  await expect(answer(member)).toContainText("Echo done: reload me.");
  await member.reload();
  await expect(echo()).toContainText("Echo: reload me");
  await expect(answer(member)).toContainText("Echo done: reload me.");
});

test("Always allow: the next call of that tool runs without asking, until revoked in settings", async () => {
  const card = () => answer(member).getByRole("group", { name: /^Approve everything · echo\?/ });
  const echo = () => answer(member).locator('[data-tool-name="everything__echo"]');
  await send(member, "Echo always");
  await card().getByRole("button", { name: "Always allow" }).click();
  await expect(echo()).toContainText("Echo: always me");
  await send(member, "Echo without asking");
  await expect(answer(member)).toContainText("Echo done: no card.");
  await expect(echo()).toContainText("Echo: no card");
  await expect(answer(member).getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);

  const chatUrl = member.url();
  await member.goto("/settings");
  await expect(member.getByRole("main").getByRole("listitem").filter({ hasText: "everything · echo" })).toBeVisible();
  await member.getByRole("button", { name: "Revoke always allow for echo" }).click();
  await expect(member.getByText("No tools are always allowed.")).toBeVisible();
  // Revoked: the next call asks again.
  await member.goto(chatUrl);
  await send(member, "Echo needs approval");
  await expect(card()).toBeVisible();
  await card().getByRole("button", { name: "Approve", exact: true }).click();
  await expect(answer(member)).toContainText("Echo done: approve me.");
});

test("when the server stops, the chat answers with a notice and the status shows the error", async ({ page }) => {
  await stopEverything();
  await send(member, "Are the tools still there?");
  await expect(answer(member)).toContainText("I answered without tools.");
  await expect(answer(member).locator('[data-notice="ToolsUnavailable"]')).toContainText('Tools of "everything" are unavailable');
  await member.getByRole("button", { name: /^Tools/ }).click();
  await expect(member.getByRole("dialog", { name: "Tools for this chat" }).locator('[data-mcp-status="error"]')).toBeVisible();

  await page.goto("/admin/mcp");
  const row = page.locator('[data-server="everything"]');
  await expect(row.locator('[data-mcp-status="error"]')).toBeVisible();
  await expect(row).toContainText(/Unreachable|ECONNREFUSED/);
  await member.context().close();
});

test("an admin disables, enables and deletes a server; deleting asks first", async ({ page }) => {
  const name = `short-lived-${Date.now().toString(36)}`;
  await addMcpServer(page, name, MCP_URL);
  const controls = page.getByRole("region", { name: "Disable or delete" });

  await controls.getByRole("button", { name: "Disable server" }).click();
  await expect(controls.getByRole("status")).toHaveText("Server disabled: its tools are no longer offered.");
  await controls.getByRole("button", { name: "Enable server" }).click();
  await expect(controls.getByRole("status")).toHaveText("Server enabled.");
  await expect(controls.getByRole("button", { name: "Disable server" })).toBeVisible();

  // Cancel keeps it; confirming deletes it and goes back to the list.
  await controls.getByRole("button", { name: "Delete server" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Delete ${name}?` });
  await expect(confirm).toContainText("Chats stop offering its tools.");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await controls.getByRole("button", { name: "Delete server" }).click();
  await page
    .getByRole("alertdialog", { name: `Delete ${name}?` })
    .getByRole("button", { name: "Yes, delete" })
    .click();
  await expect(page).toHaveURL(/\/admin\/mcp$/);
  await expect(page.getByRole("link", { name })).toHaveCount(0);
});
