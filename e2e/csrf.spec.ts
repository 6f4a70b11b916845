// CSRF from a same-site page: the victim (an admin of this spec's own team, an account of its own, so no
// other spec file changes what they see) is signed in at http://127.0.0.1:<port>; an attacker's page on another port of the same host (http://127.0.0.1:<port+5>: same site, so the
// SameSite=Lax session cookie is sent) submits the app's own forms (one server action from every
// actions file), a text/plain form to /api/chat, and credentialed fetches to every state-changing
// route. Each is refused (403) and nothing the victim can see changed.
import http from "node:http";
import { expect, test, type Page, type Response } from "@playwright/test";
import { SIGNED_OUT, createInvite, uniqueUser } from "./helpers";
import { ensureFileTeam } from "./own-team";

const PORT = Number(process.env.E2E_PORT || 3210);
const APP = `http://127.0.0.1:${PORT}`;
const ATTACKER = `http://127.0.0.1:${PORT + 5}`;

test.use({ ...SIGNED_OUT, baseURL: APP });
test.setTimeout(180_000);

/** The attacker's pages, by path. */
const pages = new Map<string, string>();
let server: http.Server;
test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    const html = pages.get(req.url ?? "/");
    res.writeHead(html ? 200 : 404, { "content-type": "text/html" }).end(html ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(PORT + 5, "127.0.0.1", resolve));
});
test.afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

test("a page on another port of the same host cannot act for the signed-in user", async ({ page, context, browser }) => {
  // The victim: a new account that joins the file's team as an admin, its only team (the seeded admin's
  // list of teams grows while other spec files run; this one's does not).
  const admin = await browser.newContext({ baseURL: `http://localhost:${PORT}`, storageState: await ensureFileTeam(browser) });
  const invite = new URL(await createInvite(await admin.newPage(), "admin"));
  await admin.close();
  const victim = uniqueUser("csrf-victim");
  await page.goto(invite.pathname);
  await page.getByLabel("Your name").fill(victim.name);
  await page.getByLabel("Email").fill(victim.email);
  await page.getByLabel("Password").fill(victim.password);
  await page.getByRole("button", { name: "Create account and join" }).click();
  await page.waitForURL("**/chat");
  const chatId = (await (await page.request.post("/api/chats")).json()).id as string;
  await page.goto(`/chat/${chatId}`);
  const teamId = await page.getByLabel("Team").inputValue();

  // The app's own forms, as any visitor's browser gets them (one action from every actions file).
  const forms = [
    { page: "/chat", button: "Sign out", fill: {} }, // app/(auth)/actions.ts
    { page: "/admin/members", button: "Create invite link", fill: {} }, // app/admin/actions.ts
    { page: "/admin/mcp", button: "Add server", fill: { name: "evil", url: `${ATTACKER}/mcp` } }, // app/admin/mcp/actions.ts
    { page: "/admin/providers", button: "Add provider", fill: { name: "evil", baseUrl: `${ATTACKER}/v1`, apiKey: "x" } }, // app/admin/providers/actions.ts
  ];
  for (const [i, f] of forms.entries()) {
    await page.goto(f.page);
    const form = page
      .locator("form")
      .filter({ has: page.getByRole("button", { name: f.button }) })
      .first();
    const html = await form.evaluate((el) => el.outerHTML);
    expect(html).toContain("$ACTION");
    pages.set(
      `/form-${i}`,
      attackPage(
        `<div id="copy">${html}</div>`,
        `
      const form = document.querySelector("#copy form");
      form.action = ${JSON.stringify(APP + f.page)}; form.method = "post"; form.enctype = "multipart/form-data";
      for (const [k, v] of Object.entries(${JSON.stringify(f.fill)})) { const el = form.elements.namedItem(k); if (el) el.value = v; }
      HTMLFormElement.prototype.submit.call(form);`,
      ),
    );
  }
  // The classic: a text/plain form whose body reads as JSON.
  const message = JSON.stringify({ id: chatId, message: { role: "user", parts: [{ type: "text", text: "pwned" }] }, x: "" }).slice(0, -3);
  pages.set(
    "/text-plain",
    attackPage(
      `<form id="f" method="post" enctype="text/plain" action="${APP}/api/chat"><input name='${message}' value='"}'></form>`,
      `document.getElementById("f").submit();`,
    ),
  );
  // Credentialed fetches to every state-changing route (no-cors where the browser allows it, cors otherwise).
  const writes: [string, string, string?][] = [
    ["POST", "/api/chat", JSON.stringify({ id: chatId, message: { role: "user", parts: [{ type: "text", text: "pwned" }] } })],
    ["POST", "/api/chats"],
    ["POST", `/api/chat/${chatId}/stop`],
    ["PATCH", `/api/chat/${chatId}`, JSON.stringify({ title: "pwned" })],
    ["DELETE", `/api/chat/${chatId}`],
    ["PUT", `/api/chat/${chatId}/tools`, JSON.stringify({ servers: [], tools: [] })],
    ["POST", "/api/tools/preferences", JSON.stringify({ toolId: "x", alwaysAllow: true })],
    ["POST", `/api/teams/${teamId}/invites`, JSON.stringify({ role: "admin", days: 30 })],
    ["PATCH", `/api/teams/${teamId}/members/x`, JSON.stringify({ role: "member" })],
    ["POST", "/api/auth/sign-out", "{}"],
  ];
  pages.set(
    "/fetch",
    attackPage(
      "",
      `
    window.done = Promise.allSettled(${JSON.stringify(writes)}.map(([method, path, body]) =>
      fetch(${JSON.stringify(APP)} + path, { method, body, credentials: "include", mode: method === "POST" ? "no-cors" : "cors",
        headers: body ? { "content-type": "text/plain" } : {} })));`,
    ),
  );

  const before = await snapshot(page, chatId, teamId);
  const attacker = await context.newPage();
  const refused: number[] = [];
  for (const path of [...forms.keys()].map((i) => `/form-${i}`).concat("/text-plain")) {
    const response = attacker.waitForResponse((r) => r.url().startsWith(APP) && r.request().method() === "POST");
    await attacker.goto(ATTACKER + path);
    refused.push((await response).status());
  }
  expect(refused).toEqual(new Array(forms.length + 1).fill(403));

  // Fetches: POSTs reach the server and are refused; PATCH/PUT/DELETE stop at the browser's preflight.
  const seen: Response[] = [];
  attacker.on("response", (r) => void (r.url().startsWith(APP) && r.request().method() !== "OPTIONS" && seen.push(r)));
  await attacker.goto(ATTACKER + "/fetch");
  await attacker.evaluate(() => (window as unknown as { done: Promise<unknown> }).done);
  const posts = writes.filter(([m]) => m === "POST").length;
  await expect.poll(() => seen.length).toBeGreaterThanOrEqual(posts);
  expect(seen.map((r) => `${r.request().method()} ${r.status()}`)).toEqual(seen.map((r) => `${r.request().method()} 403`));

  // Nothing changed, and the victim is still signed in.
  expect(await snapshot(page, chatId, teamId)).toEqual(before);
  await attacker.close();
});

function attackPage(body: string, script: string): string {
  return `<!doctype html><html><body>${body}<script>${script}</script></body></html>`;
}

/** What the victim sees, through their own (same-origin) requests. */
async function snapshot(page: Page, chatId: string, teamId: string) {
  const json = async (path: string) => {
    const res = await page.request.get(path);
    return { status: res.status(), body: await res.json() };
  };
  await page.goto("/admin/providers");
  const providers = await page.locator("main").innerText();
  await page.goto("/admin/mcp");
  const mcp = await page.locator("main").innerText();
  return {
    chats: await json("/api/chats"),
    messages: await json(`/api/chat/${chatId}/messages`),
    tools: await json(`/api/chat/${chatId}/tools`),
    invites: await json(`/api/teams/${teamId}/invites`),
    members: await json(`/api/teams/${teamId}/members`),
    preferences: await json("/api/tools/preferences"),
    team: await page.getByLabel("Team").inputValue(),
    teams: await page.getByLabel("Team").locator("option").allInnerTexts(),
    providers,
    mcp,
  };
}
