// Members act as themselves at an MCP server: a real OAuth authorization server (oidc-provider, with
// its login page) and a protected MCP server whose `whoami` tool answers with the caller's identity,
// on loopback (test/support/mcp-auth-server.ts). An admin sets the server to "OAuth: each member
// connects their own account"; each member sees "Connect to use", connects through the provider's
// login page, and their tool call shows their own identity. An expired token is refreshed without
// the member noticing; a revoked one shows the Connect notice, "connect again" under Settings →
// Connections and "Connect to use" in the picker; Disconnect brings "Connect to use" back.
import { expect, test, type Page } from "@playwright/test";
import { startMcpAuthStack, type McpAuthStack } from "../test/support/mcp-auth-server";
import { violations } from "./axe";
import { answer, chooseOption, createInvite, joinWithNewAccount, newChat, send } from "./helpers";
import { inOwnTeam } from "./own-team";

test.describe.configure({ mode: "serial" });
test.use({ storageState: inOwnTeam });

let stack: McpAuthStack;
test.beforeAll(async () => {
  // Ports from the environment when given (0: any free one).
  stack = await startMcpAuthStack({ asPort: Number(process.env.E2E_MCP_AS_PORT || 0), mcpPort: Number(process.env.E2E_MCP_AUTH_PORT || 0) });
});
test.afterAll(async () => {
  await stack?.close();
});

const QUESTION = "Who am I at the protected server?";

/** Opens Tools in a new chat; connects through the provider's login page when asked to. */
async function connectAndPick(page: Page, login: string) {
  await newChat(page);
  await page.getByRole("button", { name: /^Tools/ }).click();
  const picker = page.getByRole("dialog", { name: "Tools for this chat" });
  await expect(picker.getByText("Connect to use")).toBeVisible();
  await picker.getByRole("link", { name: "Connect protected" }).click();
  // The authorization server's own pages: log in, consent.
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page).toHaveURL(/connected=protected/);
  await newChat(page);
  await page.getByRole("button", { name: /^Tools/ }).click();
  await page.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use protected", exact: true }).check();
  await page.keyboard.press("Escape");
}

async function askWhoAmI(page: Page, expected: string) {
  await send(page, QUESTION);
  const block = answer(page).locator('[data-tool-name="protected__whoami"]');
  // A new server's tools ask first, whatever they declare about themselves (issue 16).
  await block.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(block).toContainText(expected);
  await expect(block).toHaveAttribute("data-tool-state", "output-available");
}

test("members connect their own accounts and act as themselves; expiry, revocation and disconnect", async ({ page, browser }) => {
  // Three members, each through the provider's pages, and several turns: a long story.
  test.setTimeout(180_000);
  // The admin adds the server with members' own OAuth accounts.
  await page.goto("/admin/mcp");
  const form = page.getByRole("form", { name: "New MCP server" });
  await form.getByLabel("Name", { exact: true }).fill("protected");
  await form.getByLabel("URL", { exact: true }).fill(stack.mcpUrl);
  await chooseOption(form.getByLabel("Members authenticate", { exact: true }), /^OAuth/);
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/\/admin\/mcp\/[a-z0-9]+\?created=1$/);

  const { page: alice } = await joinWithNewAccount(browser, await createInvite(page));
  const { page: bob } = await joinWithNewAccount(browser, await createInvite(page));
  await connectAndPick(alice, "alice-at-idp");
  await askWhoAmI(alice, "You are alice-at-idp");
  await connectAndPick(bob, "bob-at-idp");
  await askWhoAmI(bob, "You are bob-at-idp");

  // Alice's access token expires at the server: her next call refreshes it and goes through.
  expect(await stack.expireAccessTokens("alice-at-idp")).toBeGreaterThan(0);
  await askWhoAmI(alice, "You are alice-at-idp");
  await expect(answer(alice).locator('[data-notice="ConnectRequired"]')).toHaveCount(0);

  // Bob's access is revoked: his next answer says so, with a Connect button.
  await stack.revokeAccount("bob-at-idp");
  await send(bob, QUESTION);
  const notice = answer(bob).locator('[data-notice="ConnectRequired"]');
  // Whether the server's tools are still listed from before (then the call asks first and fails at the
  // server) or no longer (then the turn starts without them), the answer ends with the notice.
  const approve = answer(bob).getByRole("button", { name: "Approve", exact: true });
  await expect(notice.or(approve)).toBeVisible();
  if (await approve.isVisible()) await approve.click();
  await expect(notice).toContainText("expired or was revoked");
  await expect(notice.getByRole("link", { name: "Connect" })).toBeVisible();
  // Settings → Connections says to connect again, and the Tools picker asks him to connect first.
  await bob.goto("/settings/connections");
  await expect(bob.locator('[data-connection="protected"]')).toContainText("Expired or revoked: connect again");
  await expect(bob.getByRole("link", { name: "Connect protected" })).toBeVisible();
  await newChat(bob);
  await bob.getByRole("button", { name: /^Tools/ }).click();
  await expect(bob.getByRole("dialog", { name: "Tools for this chat" }).getByText("Connect to use")).toBeVisible();

  // Alice disconnects under Settings → Connections: her tools are "Connect to use" again.
  await alice.goto("/settings/connections");
  await expect(alice.locator('[data-connection="protected"]')).toContainText("Connected");
  expect(await violations(alice)).toEqual([]);
  await alice.getByRole("button", { name: "Disconnect protected" }).click();
  await expect(alice.locator('[data-connection="protected"]')).toContainText("Not connected");
  await newChat(alice);
  await alice.getByRole("button", { name: /^Tools/ }).click();
  await expect(alice.getByRole("dialog", { name: "Tools for this chat" }).getByText("Connect to use")).toBeVisible();

  // The audit log names the credential each call used, never a token.
  await page.goto("/admin/audit");
  await expect(page.getByText("mcp.tool.call").first()).toBeVisible();
  await expect(page.locator("body")).toContainText("member-oauth");
});
