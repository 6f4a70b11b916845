// Shared steps for the e2e specs: the first admin's credentials, signing in, inviting and joining,
// adding an MCP server.
import { expect, type Browser, type Locator, type Page } from "@playwright/test";

export const ADMIN = { name: "Ada Admin", email: "ada@example.com", password: "correct horse battery", team: "Analytical Engines" };
/**
 * Per-port output directory: runs side by side in one working tree (E2E_PORT set) must not share it,
 * because Playwright empties its outputDir at start, which deleted another run's signed-in admin state.
 */
export const OUTPUT_DIR = process.env.E2E_PORT ? `test-results-${process.env.E2E_PORT}` : "test-results";
export const ADMIN_STATE = `${OUTPUT_DIR}/.auth/admin.json`;

/** The team of the spec file that runs now, when its tests use the stored admin session (e2e/own-team.ts). */
type FileTeam = { file: string; name: string; state: string };
let currentFileTeam: FileTeam | undefined;
export const fileTeam = () => currentFileTeam;
export const setFileTeam = (team: FileTeam | undefined) => {
  currentFileTeam = team;
};
/** The stored admin session chosen into this spec file's own team (the first team's before any). */
export const adminState = () => currentFileTeam?.state ?? ADMIN_STATE;
/** The name of the team this spec file's admin session works in. */
export const teamName = () => currentFileTeam?.name ?? ADMIN.team;

/** Context options for a fresh visitor (test.use's storageState would otherwise sign them in as the admin). */
export const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };

/**
 * Waits until the page's scripts have taken the element over (React hydrated it): a server-rendered
 * checkbox or button does nothing before, so a spec that clicks right after a reload waits for this,
 * as a person's click needs it. (Text typed before it is kept: components/ui/input.tsx.)
 */
export async function hydrated(locator: Locator) {
  await expect.poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps")))).toBe(true);
}

let counter = 0;
export function uniqueUser(prefix = "member") {
  const id = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return { name: `${prefix} ${id}`, email: `${prefix}-${id}@example.com`, password: "a long enough password" };
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** As an admin (on `page`), create an invite link for the current team and return its URL. */
export async function createInvite(page: Page, role: "member" | "admin" = "member"): Promise<string> {
  await page.goto("/admin/members");
  await chooseOption(page.getByLabel("Role", { exact: true }), role === "admin" ? "Admin" : "Member");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const field = page.getByLabel("Invite link", { exact: true });
  await expect(field).toHaveValue(/\/invite\/[A-Za-z0-9_-]{20,}$/);
  return field.inputValue();
}

/** Opens the invite in a fresh browser context, creates the account, and returns its signed-in page. */
export async function joinWithNewAccount(browser: Browser, url: string, user = uniqueUser()) {
  const context = await browser.newContext(SIGNED_OUT);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await page.waitForURL("**/chat");
  return { page, context, user };
}

/**
 * Opens a new chat from the sidebar: an empty composer at /chat; the first message stores the chat
 * and moves the address to /chat/<id>.
 */
export async function newChat(page: Page) {
  await page.goto("/chat");
  await expect(page.getByRole("heading", { name: "New chat", level: 1 })).toBeVisible();
}

/** A stored, empty chat (made through the API, as a client that sets its tools before the first message would), opened. */
export async function storedChat(page: Page): Promise<string> {
  if (!page.url().startsWith("http")) await page.goto("/chat");
  const res = await page.request.post("/api/chats", { headers: { origin: new URL(page.url()).origin } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/chat/${id}`);
  return id;
}

/**
 * A stored chat with every tool of the named server, chosen through the chat's tools API (the picker
 * itself is tested in mcp.spec.ts; here it would only add its own timing).
 */
export async function chatWithServerTools(page: Page, serverName: string): Promise<string> {
  const chatId = await storedChat(page);
  const tools = (await (await page.request.get(`/api/chat/${chatId}/tools`)).json()) as { servers: { id: string; name: string; tools: { id: string }[] }[] };
  const server = tools.servers.find((s) => s.name === serverName)!;
  const res = await page.request.put(`/api/chat/${chatId}/tools`, {
    headers: { origin: new URL(page.url()).origin, "content-type": "application/json" },
    data: { servers: [server.id], tools: server.tools.map((t) => t.id) },
  });
  expect(res.ok()).toBe(true);
  return chatId;
}

/**
 * Types a message in the composer and sends it with Enter, once Send is offered (while an answer is
 * still being written the composer shows Stop, and Enter keeps the text, as it would for a person).
 */
export async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill(text);
  await expect(page.getByRole("button", { name: "Send", exact: true })).toBeEnabled();
  await box.press("Enter");
}

/** The newest answer in the open chat. */
export const answer = (page: Page) => page.getByRole("article", { name: "Assistant message" }).last();

/**
 * From the next page the tab opens, counts the newest answer's words at every change the page makes
 * to it (a MutationObserver sees each change, also those no screenshot would catch).
 */
export async function countAnswerWords(page: Page) {
  await page.addInitScript(() => {
    const counts: number[] = [];
    (window as unknown as { answerWords: number[] }).answerWords = counts;
    const words = () => {
      const answers = document.querySelectorAll('article[data-role="assistant"]');
      return (answers[answers.length - 1]?.querySelector(".prose-chat")?.textContent?.match(/[\w-]+\./g) ?? []).length;
    };
    new MutationObserver(() => {
      const n = words();
      if (n !== counts.at(-1)) counts.push(n);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The newest answer's word counts since the page opened (countAnswerWords), from the first that showed words. */
export async function answerWordCounts(page: Page): Promise<number[]> {
  const counts = await page.evaluate(() => (window as unknown as { answerWords: number[] }).answerWords);
  const first = counts.findIndex((n) => n > 0);
  return first === -1 ? counts : counts.slice(first);
}

/** Picks an option of a select by its visible label (or the first label a pattern matches). */
export async function chooseOption(select: Locator, option: string | RegExp) {
  const label = typeof option === "string" ? option : (await select.locator("option").allTextContents()).find((t) => option.test(t));
  if (label === undefined) throw new Error(`No option matches ${option}`);
  await select.selectOption({ label });
}

/** Adds an MCP server with the admin form (the current team's) and waits for its page. */
export async function addMcpServer(page: Page, name: string, url: string) {
  await page.goto("/admin/mcp");
  const form = page.getByRole("form", { name: "New MCP server" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("URL", { exact: true }).fill(url);
  await form.getByRole("button", { name: "Add server" }).click();
  await expect(page).toHaveURL(/\/admin\/mcp\/[a-z0-9]+\?created=1$/);
}

/** On a server's page: tests the connection and returns the list of its tools (refreshed by the test). */
export async function testMcpConnection(page: Page): Promise<Locator> {
  await page.getByRole("button", { name: "Test connection" }).click();
  return page.getByRole("list", { name: "Tools", exact: true });
}

/**
 * The spec file's team's MCP server of this name, added (and its connection tested, so its tools are
 * stored) unless it is there already: for a `beforeAll`, which runs again in a new worker after a failure.
 */
export async function ensureMcpServer(browser: Browser, name: string, url: string) {
  const context = await browser.newContext({ storageState: adminState() });
  const page = await context.newPage();
  await page.goto("/admin/mcp");
  if (!(await page.getByRole("link", { name, exact: true }).count())) {
    await addMcpServer(page, name, url);
    await expect(await testMcpConnection(page)).toContainText("echo");
  }
  await context.close();
}
