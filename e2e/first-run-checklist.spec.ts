// First run without any model provider, on a server of its own (scripts/start.mjs, a fresh data
// directory, no provider in the environment): setup reached through a proxy asks for the set-up code
// the server printed, and keeps what was typed when it refuses; the admin's empty chat page shows the
// first-run checklist, each step ticked once done; "No model is available" links the admin to the
// providers page and tells a member to ask an admin; the server says where it is ready.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { THEMES, violations } from "./axe";
import { SIGNED_OUT, chooseOption, send, uniqueUser } from "./helpers";

const PORT = Number(process.env.E2E_PORT || 3210) + 11;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const ADMIN = { name: "Fern First", email: "fern@example.com", password: "copper willow lantern", team: "First Run Team" };

test.use(SIGNED_OUT);
test.describe.configure({ mode: "serial" });

let server: ChildProcess;
let dataDir: string;
let log = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-first-run-"));
  const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_DATA_DIR: dataDir };
  for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "PARLEY_DEFAULT_MODEL", "PARLEY_PROVIDER_KIND", "DATABASE_URL", "REDIS_URL", "PARLEY_URL", "BETTER_AUTH_URL", "PARLEY_PROCESSES", "PARLEY_SECRET_KEY"]) delete env[key];
  server = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], { stdio: ["ignore", "pipe", "inherit"], env });
  server.stdout!.setEncoding("utf8").on("data", (d: string) => (log += d));
  await expect.poll(() => log, { timeout: 150_000 }).toContain(`Parley is ready at http://127.0.0.1:${PORT}`);
});

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const step = (page: Page, name: string) => page.getByRole("region", { name: "Get your team started" }).getByRole("listitem").filter({ hasText: name });

test("setup from another machine asks for the set-up code and keeps what was typed", async ({ browser }) => {
  // Its server printed the code, and builds nothing when the build is of this source.
  expect(log).not.toContain("building (next build");
  const code = /Set-up code \(asked when \/setup is opened from another machine\): ([A-Z0-9-]{14})/.exec(log)?.[1];
  expect(code).toBeTruthy();

  // Through a reverse proxy (a forwarded request), setup is "from another machine".
  const context = await browser.newContext({ ...SIGNED_OUT, extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.7" } });
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/`);
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel("Your name").fill(ADMIN.name);
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByLabel("Team name").fill(ADMIN.team);
  await page.getByLabel("Set-up code").fill("WRNG-WRNG-WRNG");
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
  // Everything typed is kept, the password too (in the page only: the server never sends it back).
  await expect(page.getByLabel("Your name")).toHaveValue(ADMIN.name);
  await expect(page.getByLabel("Password")).toHaveValue(ADMIN.password);
  await expect(page.getByLabel("Team name")).toHaveValue(ADMIN.team);

  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await expect(page.getByText("This is not the set-up code. Copy it from the server's log.").first()).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveValue(ADMIN.password);
  await page.getByLabel("Set-up code").fill(code!.toLowerCase());
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await context.close();
});

test("the empty chat page guides the admin; without a model, admins get a link and members are told to ask", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.goto(`${ORIGIN}/sign-in`);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/chat$/);

  await expect(page.getByRole("heading", { name: ADMIN.team })).toBeVisible();
  for (const name of ["Connect a provider", "Add an MCP server", "Invite people"]) await expect(step(page, name)).toContainText("To do");
  await expect(step(page, "Connect a provider").getByRole("link", { name: "Connect a provider" })).toHaveAttribute("href", "/admin/providers");
  await expect(step(page, "Add an MCP server").getByRole("link", { name: "Add an MCP server" })).toHaveAttribute("href", "/admin/mcp");

  // Without a model, the new chat says so with the link, and a message sent anyway says where to go.
  await expect(page.getByRole("status").filter({ hasText: "No model is available for this team yet." }).getByRole("link", { name: "Connect a provider" })).toHaveAttribute("href", "/admin/providers");
  await send(page, "Is anyone there?");
  await expect(page.getByRole("alert").filter({ hasText: "Connect a provider under Admin → Providers." })).toBeVisible();

  // Inviting someone ticks its step.
  await page.goto(`${ORIGIN}/chat`);
  await step(page, "Invite people").getByRole("link", { name: "Invite people" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await page.getByRole("button", { name: "Create invite link" }).click();
  const invite = await page.getByLabel("Invite link", { exact: true }).inputValue();
  await page.goto(`${ORIGIN}/chat`);
  await expect(step(page, "Invite people")).toContainText("Done");

  // A member sees no checklist, and is told to ask an admin.
  const memberContext = await browser.newContext(SIGNED_OUT);
  const member = await memberContext.newPage();
  const user = uniqueUser("first");
  await member.goto(invite);
  await member.getByLabel("Your name").fill(user.name);
  await member.getByLabel("Email").fill(user.email);
  await member.getByLabel("Password").fill(user.password);
  await member.getByRole("button", { name: "Create account and join" }).click();
  await expect(member).toHaveURL(/\/chat$/);
  await expect(member.getByRole("status").filter({ hasText: "No model is available" })).toHaveText("No model is available for this team yet. Ask an admin of your team to connect a provider.");
  await expect(member.getByRole("region", { name: "Get your team started" })).toHaveCount(0);

  // The checklist and the notices pass axe, in light and dark.
  const found: string[] = [];
  for (const theme of THEMES) {
    for (const who of [page, member]) {
      const path = "/chat";
      await who.context().addCookies([{ name: "parley_theme", value: theme, url: ORIGIN }]);
      await who.goto(`${ORIGIN}${path}`);
      await expect(who.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      await expect(who.getByText("No model is available for this team yet.")).toBeVisible();
      found.push(...(await violations(who)).map((v) => `${theme} ${path}: ${v}`));
    }
  }
  expect(found).toEqual([]);

  // The admin connects a provider with a model: that step is ticked, and chats work.
  await page.goto(`${ORIGIN}/admin/providers`);
  const form = page.getByRole("form", { name: "New provider" });
  await form.getByLabel("Name").fill("Scripted");
  await chooseOption(form.getByLabel("Kind"), "OpenAI (Chat Completions)");
  await form.getByLabel("Base URL").fill(UPSTREAM);
  await form.getByLabel("API key").fill("sk-e2e-first-run-0000");
  await form.getByRole("button", { name: "Add provider" }).click();
  await expect(page).toHaveURL(/\/admin\/providers\/[a-z0-9]+/);
  await page.getByText("Add a model by id", { exact: true }).click();
  const model = page.getByRole("form", { name: "New model" });
  await model.getByLabel("Model id").fill("first-run-model");
  await model.getByRole("button", { name: "Add model" }).click();
  await expect(page.getByRole("list", { name: "Models" })).toContainText("first-run-model");
  await page.goto(`${ORIGIN}/chat`);
  await expect(step(page, "Connect a provider")).toContainText("Done");
  await expect(step(page, "Add an MCP server")).toContainText("To do");
  await member.reload();
  await expect(member.getByLabel("Model", { exact: true }).locator("option:checked")).toHaveText("first-run-model");
  await expect(member.getByText("No model is available for this team yet.")).toHaveCount(0);
  await memberContext.close();
});
