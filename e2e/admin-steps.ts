// Admin steps the everyday specs share: a team of their own (so other specs' servers and choices stay
// as they are) and an MCP server (server-everything) added and tested.
import { expect, test, type Page } from "@playwright/test";
import { MCP_URL, startEverything, stopEverything } from "./everything";
import { ADMIN, SIGNED_OUT, addMcpServer, chooseOption, signIn, testMcpConnection } from "./helpers";

/**
 * For a spec file: each test signs the admin in afresh (sign-in.spec signs the stored admin session
 * out), with server-everything running for the file.
 */
export function adminWithEverything() {
  test.use(SIGNED_OUT);
  test.beforeEach(async ({ page }) => {
    await signIn(page, ADMIN.email, ADMIN.password);
    await expect(page).toHaveURL(/\/chat$/);
  });
  test.beforeAll(startEverything);
  test.afterAll(stopEverything);
}

export async function createTeam(page: Page, name: string) {
  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill(name);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
}

/** Adds server-everything under `name`, tests it, and leaves the page on the server's admin page. */
export async function addEverything(page: Page, name = "everything") {
  await addMcpServer(page, name, MCP_URL);
  await expect(await testMcpConnection(page)).toContainText("echo");
}

/** Sets a tool's approval policy on the server's admin page and waits until it is saved. */
export async function setToolPolicy(page: Page, tool: string, policy: "Ask every time" | "An admin approves" | "Run without asking" | "Never offer") {
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/admin/mcp/"));
  await chooseOption(page.getByLabel(`Approval policy of ${tool}`), policy);
  await saved;
  await page.reload();
  await expect(page.getByLabel(`Approval policy of ${tool}`).locator("option:checked")).toHaveText(policy);
}

/** On a server's admin page: lets the tools the server marks read-only run without asking (new tools ask). */
export async function trustReadOnlyHints(page: Page) {
  await page.getByRole("checkbox", { name: "Run tools it marks read-only without asking" }).check();
  await expect(page.getByText("Tools this server marks read-only now run without asking.")).toBeVisible();
}
