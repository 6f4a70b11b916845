// A team's first hour, as one story on a server of its own (scripts/start.mjs as `npm start` runs it, a
// fresh data directory, no provider in the environment), checking at each step what each person sees:
// setup reached through a proxy asks for the set-up code the server printed and keeps what was typed
// when it refuses; the admin's empty chat page lists the first steps, ticked once done, and "No model is
// available" links the admin to the providers page and tells a member to ask an admin; the admin
// connects a provider and an MCP server and invites two members, who chat (New chat several times,
// each an empty chat of its own), use a tool that waits for an admin, share, search and run into a
// budget, while the admin approves from the inbox; then the operator stops the server with tabs open
// (SIGTERM mid-answer, then Ctrl-C) and starts it again, and everyone carries on.
import { expect, test, type Page } from "@playwright/test";
import { THEMES, violations } from "./axe";
import { addEverything, setToolPolicy } from "./admin-steps";
import { startEverything, stopEverything } from "./everything";
import { SIGNED_OUT, answer, chooseOption, createInvite, joinWithNewAccount, send, signIn, uniqueUser } from "./helpers";
import { ownServer } from "./own-server";

const server = ownServer("first-hour", Number(process.env.E2E_PORT || 3210) + 11);
const ORIGIN = server.origin;
const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const ADMIN = { name: "Fern First", email: "fern@example.com", password: "copper willow lantern", team: "First Run Team" };
/** The default of PARLEY_SHUTDOWN_MS: a container runtime's SIGKILL follows SIGTERM after 10 s. */
const SHUTDOWN_MS = 10_000;

test.use({ ...SIGNED_OUT, baseURL: ORIGIN });
test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await server.start();
});

test.afterAll(async () => {
  await stopEverything();
  await server.dispose();
});

const step = (page: Page, name: string) => page.getByRole("region", { name: "Get your team started" }).getByRole("listitem").filter({ hasText: name });

test("setup from another machine asks for the set-up code and keeps what was typed", async ({ browser }) => {
  // Its server printed the code, and builds nothing when the build is of this source.
  expect(server.log()).not.toContain("building (next build");
  const code = /Set-up code \(asked when \/setup is opened from another machine\): ([A-Z0-9-]{14})/.exec(server.log())?.[1];
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
  await expect(
    page.getByRole("status").filter({ hasText: "No model is available for this team yet." }).getByRole("link", { name: "Connect a provider" }),
  ).toHaveAttribute("href", "/admin/providers");
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
  await expect(member.getByRole("status").filter({ hasText: "No model is available" })).toHaveText(
    "No model is available for this team yet. Ask an admin of your team to connect a provider.",
  );
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

/** Clicks New chat in the sidebar: an empty chat at /chat, whatever was open before. */
async function newChatFromSidebar(page: Page) {
  await page.getByRole("complementary", { name: "Sidebar" }).getByRole("link", { name: "New chat", exact: true }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await expect(page.getByText("Send a message to start a new chat")).toBeVisible();
  await expect(page.getByRole("article")).toHaveCount(0);
}

/** Asks in the open new chat and waits until the answer is done; the chat's id. */
async function ask(page: Page, question: string, reply: string): Promise<string> {
  await send(page, question);
  await expect(page).toHaveURL(/\/chat\/[a-z0-9]{20,40}$/);
  await expect(answer(page)).toContainText(reply);
  await expect(answer(page).getByRole("button", { name: "Regenerate" })).toBeVisible();
  await expect(page.getByRole("article", { name: "Your message" })).toHaveText([new RegExp(question)]);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  // Listed at once (before any click in the sidebar, so that no link moves under the pointer).
  await expect(page.getByRole("navigation", { name: "Chats" }).locator(`a[href="/chat/${id}"]`)).toBeVisible();
  return id;
}

const ROUNDS = [
  ["First hour: plan the offsite", "Offsite plan: three days in Lisbon."],
  ["First hour: pick a venue", "Venue: the old tram depot."],
  ["First hour: write the invite", "Invite drafted for everyone."],
] as const;

test("the rest of the hour: members chat, use a tool an admin approves, share, search and hit a budget; a restart with tabs open loses nothing", async ({
  page: admin,
  browser,
}) => {
  test.setTimeout(360_000);
  await startEverything();
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(/\/chat$/);

  // The admin adds the team's MCP server: its echo waits for an admin, and is on in every new chat.
  await addEverything(admin);
  await setToolPolicy(admin, "echo", "An admin approves");
  await admin.getByRole("checkbox", { name: "On by default in new chats" }).check();
  await expect(admin.getByRole("status").filter({ hasText: "On by default" })).toBeVisible();
  // Every first step is done now: the checklist has gone from the admin's empty chat page.
  await admin.goto("/chat");
  await expect(admin.getByText("Send a message to start a new chat")).toBeVisible();
  await expect(admin.getByRole("region", { name: "Get your team started" })).toHaveCount(0);

  // Two people join with their invite links.
  const bea = await joinWithNewAccount(browser, await createInvite(admin), uniqueUser("bea"));
  const cal = await joinWithNewAccount(browser, await createInvite(admin), uniqueUser("cal"));
  await admin.goto("/chat");

  // Bea asks three things, each after New chat: every question starts an empty chat of its own.
  const chats: string[] = [];
  for (const [question, reply] of ROUNDS) {
    await newChatFromSidebar(bea.page);
    chats.push(await ask(bea.page, question, reply));
  }
  expect(new Set(chats).size).toBe(3);

  // From a chat opened in the sidebar too: New chat is empty, and her question's tool call waits for an admin.
  await bea.page.getByRole("navigation", { name: "Chats" }).locator(`a[href="/chat/${chats[0]}"]`).click();
  await expect(bea.page.getByRole("article", { name: "Your message" })).toHaveText([new RegExp(ROUNDS[0][0])]);
  await newChatFromSidebar(bea.page);
  await send(bea.page, "Echo needs approval");
  const card = answer(bea.page).locator('[data-tool-name="everything__echo"]');
  await expect(card.getByRole("status").filter({ hasText: "Waiting for an admin" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);

  // The admin's badge counts it without a reload; the admin approves it in the inbox.
  const badge = admin.getByRole("link", { name: /^Approvals/ }).first();
  await expect(badge.locator("[data-approvals-count]")).toHaveText(/^1/);
  await badge.click();
  const item = admin.getByRole("article", { name: "everything · echo" });
  await expect(item).toContainText("Echo needs approval");
  await item.getByRole("button", { name: "Approve", exact: true }).click();
  await expect(admin.getByText("No tool call is waiting for an admin.")).toBeVisible();
  // Bea's open chat goes on by itself, saying who let the call run.
  await expect(answer(bea.page)).toContainText("Echo done: approve me.", { timeout: 30_000 });
  await expect(card.locator("[data-decision]")).toHaveText(new RegExp(`^Approved by ${ADMIN.name} \\(admin\\) at `));

  // Bea shares her first chat with Cal; he finds it by a word of its answer, reads it, and from there
  // New chat gives him an empty chat of his own.
  await bea.page.goto(`/chat/${chats[0]}`);
  await bea.page.getByRole("button", { name: "Share", exact: true }).click();
  await chooseOption(bea.page.getByLabel("Share with"), cal.user.name);
  await bea.page.getByRole("button", { name: "Share chat" }).click();
  await expect(bea.page.getByText(`${cal.user.name} · read only`)).toBeVisible();
  await bea.page.getByRole("button", { name: "Close" }).click();
  await cal.page.goto("/search?q=Lisbon");
  await expect(cal.page.locator("mark", { hasText: "Lisbon" })).toBeVisible();
  await cal.page.getByRole("main").locator(`a[href^="/chat/${chats[0]}"]`).first().click();
  await expect(answer(cal.page)).toContainText(ROUNDS[0][1]);
  await expect(cal.page.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await newChatFromSidebar(cal.page);
  const calsChat = await ask(cal.page, ROUNDS[1][0], ROUNDS[1][1]);
  expect(chats).not.toContain(calsChat);

  // A long question uses 6,000 tokens; then the admin sets each member a budget of 1,000 tokens a
  // month. Bea's next message is refused with the reason, and its text stays in the box.
  await newChatFromSidebar(bea.page);
  await ask(bea.page, "First hour: a long question", "A long answer, six thousand tokens in all.");
  await admin.goto("/admin/usage");
  const budget = admin.getByRole("form", { name: "Set a budget" });
  await chooseOption(budget.getByLabel("For"), "Each member (default)");
  await chooseOption(budget.getByLabel("In"), "Tokens");
  await budget.getByLabel("Monthly limit").fill("1000");
  await budget.getByRole("button", { name: "Set budget" }).click();
  await expect(budget.getByRole("status")).toHaveText("Budget saved.");
  const refused = bea.page.waitForResponse((r) => r.url().endsWith("/api/chat") && r.request().method() === "POST");
  await send(bea.page, "First hour: one more question");
  expect((await refused).status()).toBe(429); // a token budget (a cost budget answers 402)
  await expect(bea.page.getByRole("alert").filter({ hasText: /^Your monthly budget of 1,000 tokens is used up until / })).toBeVisible();
  await expect(bea.page.getByRole("textbox", { name: "Message" })).toHaveValue("First hour: one more question");

  // The operator restarts the server while everyone's tabs are open and Cal's answer streams: it stops
  // within the limit, and what Cal saw is kept, marked interrupted, with Continue.
  await newChatFromSidebar(cal.page);
  await send(cal.page, "First hour: count slowly");
  await expect(answer(cal.page)).toContainText("Step 3.");
  const stopped = await server.stop("SIGTERM");
  expect(stopped.code).toBe(0);
  expect(stopped.ms).toBeLessThan(SHUTDOWN_MS);
  const shown = Math.max(...[...((await answer(cal.page).textContent()) ?? "").matchAll(/Step (\d+)\./g)].map((m) => Number(m[1])));
  expect(shown).toBeLessThan(60);
  await server.start();
  await cal.page.reload();
  await expect(answer(cal.page)).toContainText(`Step ${shown}.`);
  await expect(answer(cal.page)).toContainText("This answer was interrupted when the server stopped.");
  await expect(answer(cal.page).getByRole("button", { name: "Continue", exact: true })).toBeVisible();
  // Nobody signs in again: Bea's and the admin's pages carry on where they were.
  await bea.page.reload();
  await expect(bea.page.getByRole("navigation", { name: "Chats" }).locator(`a[href="/chat/${chats[2]}"]`)).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole("table", { name: "Budgets" }).getByRole("row").filter({ hasText: "Each member" })).toContainText("1,000");
  await bea.context.close();
  await cal.context.close();
});

test("Ctrl-C (SIGINT) with a signed-in tab open: the server exits 0 in time and starts again on the same data", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/chat$/);
  const stopped = await server.stop("SIGINT");
  expect(stopped.code).toBe(0);
  expect(stopped.ms).toBeLessThan(SHUTDOWN_MS);
  await server.start();
  await page.reload();
  await expect(page.getByRole("heading", { name: ADMIN.team })).toBeVisible();
});
