// Two app instances (separate `npm start` processes) on PostgreSQL and Redis behind a real load
// balancer (nginx, round-robin, no sticky sessions), as the deployment example of docs/operations.md runs them:
// a turn started on one instance is resumed by a reload served by the other, stopped from it, and a
// pending approval is decided through it; killing an instance mid-turn leaves its answer marked
// interrupted while the other serves everything; a member's rate limit counts across both; a rolling
// restart (SIGTERM to the instance running an answer) loses no answer: the other instance finishes it.
// Needs TEST_DATABASE_URL, TEST_REDIS_URL and nginx (CI installs Debian's package); skipped without.
// Against containers of the image when PARLEY_TEST_IMAGE names it (deploy/test-cluster.sh).
// Ports: E2E_BALANCER_PORT (the balancer) and the next two (the instances).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { call, nginxBinary, startInstance, startNginx, type Proc } from "../test/support/load-balancer";
import { addEverything } from "./admin-steps";
import { startEverything, stopEverything } from "./everything";
import { answer, createInvite, joinWithNewAccount, send, SIGNED_OUT } from "./helpers";
import { setUpstreamFixtures } from "./upstream-fixtures";

const DB_URL = process.env.TEST_DATABASE_URL?.trim();
const REDIS_URL = process.env.TEST_REDIS_URL?.trim();
const LB_PORT = Number(process.env.E2E_BALANCER_PORT || 3240);
const LB = `http://127.0.0.1:${LB_PORT}`;
const PORTS = [LB_PORT + 1, LB_PORT + 2];
const UPSTREAM_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}`;
const UPSTREAM = `${UPSTREAM_ORIGIN}/v1`;
/** A slow answer (about a minute): long enough to reload, stop or kill while it streams. */
const SLOW = "Balanced: count very slowly";
const SLOW_FIXTURE = {
  match: { userMessage: SLOW },
  response: { content: Array.from({ length: 120 }, (_, i) => `Number ${i + 1}.`).join(" ") },
  chunkSize: 6,
  streamingProfile: { ttft: 100, tps: 4 },
};
/** How the answer goes on when the instance that wrote it stopped and another continues it. */
const RESUMED_FIXTURE = {
  match: { userMessage: "Continue your previous answer exactly where it stopped" },
  response: { content: "Number 119. Number 120. That is all." },
};
/**
 * Messages per member per minute on both instances: the admin sends five in the first two tests (the
 * third test's fresh member then sends one more than this and is refused).
 */
const RATE_LIMIT = 6;

test.skip(!DB_URL || !REDIS_URL || !nginxBinary(), "needs TEST_DATABASE_URL, TEST_REDIS_URL and nginx");
// CI runs this spec once, against the image's containers right after `npm test` (deploy/test-cluster.sh,
// which sets PARLEY_TEST_IMAGE), and says so with PARLEY_E2E_BALANCED=containers.
test.skip(process.env.PARLEY_E2E_BALANCED === "containers" && !process.env.PARLEY_TEST_IMAGE, "CI runs it against the image's containers");
test.describe.configure({ mode: "serial" });
test.use({ ...SIGNED_OUT, baseURL: LB });
// Two more servers and nginx on the machine: pages take longer than in the other specs.
test.slow();

let dir: string;
let dbName: string;
let dbUrl: string;
let nginx: Proc | undefined;
/** The instances by the address the balancer names them with (`127.0.0.1:<port>`). */
const instances = new Map<string, Proc>();
let cookie = "";

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const other = (instance: string) => [...instances.keys()].find((k) => k !== instance)!;
const status = async (messageId: string) => (await sql<{ status: string }>(dbUrl, `SELECT status FROM "Message" WHERE id = $1`, [messageId]))[0]?.status;
const newChatId = async (c = cookie) => JSON.parse((await call(LB, "POST", "/api/chats", { cookie: c, body: {} })).text).id as string;
const ask = (chat: string, text: string) => ({ id: chat, message: { role: "user", parts: [{ type: "text", text }] } });

/** The answer's text in a UI message stream (its text deltas joined). */
const answerText = (sse: string) =>
  sse
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)) as { type: string; delta?: string })
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta)
    .join("");

/** The slow answer started through the balancer; resolves once it is under way. */
async function startSlowTurn(chat: string) {
  let instance = "";
  let text = "";
  const done = call(LB, "POST", "/api/chat", { cookie, body: ask(chat, SLOW), onResponse: (i) => (instance = i), onData: (t) => (text = t) }).catch(
    (e: Error) => ({ error: e.message }),
  );
  await expect.poll(() => answerText(text), { timeout: 30_000 }).toContain("Number 2.");
  const messageId = /"messageId":"([^"]+)"/.exec(text)![1];
  return { instance, messageId, done, text: () => text };
}

async function signedIn(page: Page) {
  await page.goto("/setup");
  await page.getByLabel("Your name").fill("Balanced Admin");
  await page.getByLabel("Email").fill("balanced@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByLabel("Team name").fill("Balanced Team");
  // Opened through a proxy, setup asks for the code the instances print (one per installation, in the database).
  const [{ value: code }] = await sql<{ value: string }>(dbUrl, `SELECT value FROM "Setting" WHERE key = 'setup_code'`);
  await page.getByLabel("Set-up code").fill(code);
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await page.waitForURL(/\/chat$/);
  cookie = (await page.context().cookies(LB)).map((c) => `${c.name}=${c.value}`).join("; ");
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dbName = `parley_e2e_balanced_${process.pid}_${Date.now()}`;
  await sql(DB_URL!, `CREATE DATABASE "${dbName}"`);
  const url = new URL(DB_URL!);
  url.pathname = `/${dbName}`;
  dbUrl = url.toString();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-balanced-"));
  // The first instance migrates the new database; the second starts once it is up.
  for (const port of PORTS) {
    instances.set(`127.0.0.1:${port}`, startInstance(port, instanceEnv(String(port)), instanceLog(port)));
    await expect
      .poll(async () => (await call(`http://127.0.0.1:${port}`, "GET", "/api/health").catch(() => ({ status: 0 }))).status, { timeout: 90_000 })
      .toBe(200);
  }
  nginx = startNginx(dir, LB_PORT, PORTS);
  await expect.poll(async () => (await call(LB, "GET", "/api/health").catch(() => ({ status: 0 }))).status, { timeout: 30_000 }).toBe(200);
  await startEverything();
  await setUpstreamFixtures(UPSTREAM_ORIGIN, [SLOW_FIXTURE, RESUMED_FIXTURE]);
});

// A failed test prints the end of what each instance logged (its shutdown and handoff lines among them).
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus || !dir) return;
  for (const port of PORTS) {
    const file = instanceLog(port);
    if (fs.existsSync(file)) console.error(`--- instance ${port}, last lines ---\n${fs.readFileSync(file, "utf8").split("\n").slice(-40).join("\n")}`);
  }
});

test.afterAll(async () => {
  await setUpstreamFixtures(UPSTREAM_ORIGIN);
  await stopEverything();
  await nginx?.stop("SIGQUIT");
  await Promise.all([...instances.values()].map((p) => p.stop()));
  if (dbName) await sql(DB_URL!, `DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a turn started on one instance is resumed by a reload on the other, stopped from it, and a pending approval is decided there", async ({ page }) => {
  test.setTimeout(300_000);
  await signedIn(page);
  const chat = await newChatId();
  const turn = await startSlowTurn(chat);
  const [a, b] = [turn.instance, other(turn.instance)];
  expect(instances.has(a)).toBe(true);

  // Reloads go round-robin: reload until the page's resume request is served by the other instance.
  let resumedOn = "";
  for (let i = 0; i < 8 && resumedOn !== b; i++) {
    const resumed = page.waitForResponse((r) => r.url().endsWith(`/api/chat/${chat}/stream`));
    await (i === 0 ? page.goto(`/chat/${chat}`) : page.reload());
    resumedOn = (await (await resumed).allHeaders())["x-parley-instance"];
  }
  expect(resumedOn).toBe(b);
  // The answer keeps arriving on the page from the instance that did not start it.
  // The resumed stream replays the answer from its first words; the page keeps what it showed meanwhile.
  const highest = async () => Math.max(0, ...[...((await answer(page).textContent()) ?? "").matchAll(/Number (\d+)\./g)].map((m) => Number(m[1])));
  let shown = 0;
  await expect.poll(async () => (shown = await highest())).toBeGreaterThanOrEqual(3);
  await expect(answer(page)).toContainText(`Number ${shown + 3}.`);

  // Stop, sent to the instance that does not run the turn (as the balancer forwards it).
  await page.goto("about:blank");
  const stop = await call(LB, "POST", `/api/chat/${chat}/stop`, { cookie, body: {}, instance: b });
  expect([stop.status, stop.instance]).toEqual([200, b]);
  await turn.done;
  expect(turn.text()).toContain('"code":"Stopped"');
  expect(answerText(turn.text())).not.toContain("Number 120.");
  await expect.poll(() => status(turn.messageId)).toBe("stopped");
  await page.goto(`/chat/${chat}`);
  await expect(answer(page)).toContainText("Stopped.");

  // A call waiting for approval, decided through the instance that did not run the turn.
  await addEverything(page);
  await page.goto("/chat");
  await page.getByRole("button", { name: /^Tools/ }).click();
  await page.getByRole("dialog", { name: "Tools for this chat" }).getByRole("checkbox", { name: "Use everything", exact: true }).check();
  await page.getByRole("button", { name: /^Tools/ }).click();
  const asked = page.waitForResponse((r) => r.url().endsWith("/api/chat") && r.request().method() === "POST");
  await send(page, "Echo needs approval");
  const ranOn = (await (await asked).allHeaders())["x-parley-instance"];
  await expect(answer(page).getByRole("button", { name: "Approve", exact: true })).toBeVisible();
  const approvalChat = page.url().split("/chat/")[1];
  // The card shows as soon as its event reaches the browser; the block is stored just after (the browser
  // sends a decision only once the answer's last event, which waits for the store, has arrived). So
  // this API client, deciding without the browser, waits for the stored block as the browser would.
  const pendingRows = () =>
    sql<{ approvalId: string }>(
      dbUrl,
      `SELECT b."approvalId" FROM "Block" b JOIN "Message" m ON m.id = b."messageId" WHERE m."chatId" = $1 AND b.status = 'approval-requested'`,
      [approvalChat],
    );
  await expect.poll(async () => (await pendingRows()).length).toBe(1);
  const [{ approvalId }] = await pendingRows();
  await page.goto("about:blank");
  const decided = await call(LB, "POST", "/api/chat", {
    cookie,
    body: { id: approvalChat, approvals: [{ approvalId, approved: true }] },
    instance: other(ranOn),
  });
  expect([decided.status, decided.instance]).toEqual([200, other(ranOn)]);
  expect(decided.text).toContain("Echo done: approve me.");
  await page.goto(`/chat/${approvalChat}`);
  await expect(answer(page)).toContainText("Echo done: approve me.");
  await expect(answer(page).getByRole("button", { name: "Approve", exact: true })).toHaveCount(0);
});

test("an instance killed mid-turn: its answer is marked interrupted and the other serves everything", async ({ page }) => {
  test.setTimeout(180_000);
  const chat = await newChatId();
  const turn = await startSlowTurn(chat);
  const survivor = other(turn.instance);
  await instances.get(turn.instance)!.stop("SIGKILL");
  instances.delete(turn.instance);
  await turn.done; // cut (the balancer cannot finish an answer whose instance died)
  // The balancer passes what the dead instance cannot take to the survivor: nothing fails.
  for (let i = 0; i < 6; i++) {
    const r = await call(LB, "GET", "/api/chats", { cookie });
    expect([r.status, r.instance]).toEqual([200, survivor]);
  }
  // The survivor notices the silent answer (no heartbeat) and marks it interrupted, keeping its text.
  await expect.poll(() => status(turn.messageId), { timeout: 30_000 }).toBe("interrupted");
  await page.context().addCookies(cookie.split("; ").map((c) => ({ name: c.split("=")[0], value: c.slice(c.indexOf("=") + 1), url: LB })));
  await page.goto(`/chat/${chat}`);
  await expect(answer(page)).toContainText("Number 1. Number 2.");
  // A new turn in the same chat runs on the survivor.
  const next = await call(LB, "POST", "/api/chat", { cookie, body: ask(chat, "Please say hello") });
  expect([next.status, next.instance]).toEqual([200, survivor]);
});

test("a member's rate limit counts across both instances", async ({ page, browser }) => {
  test.setTimeout(180_000);
  // Both instances again, so the member's messages alternate between them.
  const dead = PORTS.find((p) => !instances.has(`127.0.0.1:${p}`))!;
  instances.set(`127.0.0.1:${dead}`, startInstance(dead, instanceEnv(`${dead}-again`), instanceLog(dead)));
  await expect
    .poll(async () => (await call(`http://127.0.0.1:${dead}`, "GET", "/api/health").catch(() => ({ status: 0 }))).status, { timeout: 90_000 })
    .toBe(200);

  await page.context().addCookies(cookie.split("; ").map((c) => ({ name: c.split("=")[0], value: c.slice(c.indexOf("=") + 1), url: LB })));
  await page.goto("/chat");
  const { page: member } = await joinWithNewAccount(browser, await createInvite(page));
  const memberCookie = (await member.context().cookies(LB)).map((c) => `${c.name}=${c.value}`).join("; ");
  // The pages leave, so only the messages below move the round-robin (they then alternate).
  await Promise.all([page.goto("about:blank"), member.goto("about:blank")]);
  const chats: string[] = [];
  for (let i = 0; i <= RATE_LIMIT; i++) chats.push(await newChatId(memberCookie));
  const served: string[] = [];
  const statuses: number[] = [];
  for (const [i, chat] of chats.entries()) {
    const r = await call(LB, "POST", "/api/chat", { cookie: memberCookie, body: ask(chat, `hello ${i}`) });
    statuses.push(r.status);
    served.push(r.instance);
  }
  // Counted per instance, each would have allowed RATE_LIMIT and every message would be answered.
  expect(statuses).toEqual([...Array(RATE_LIMIT).fill(200), 429]);
  expect(new Set(served.slice(0, RATE_LIMIT)).size).toBe(2);
  // Budgets are counted in the database the same way; lib/usage/budgets.test.ts shows two processes
  // on one PostgreSQL holding a team budget together.
});

test("a rolling restart: the instance writing an answer stops within 10 s, and the other one finishes the answer", async ({ page }) => {
  test.setTimeout(180_000);
  if (!cookie) await signedIn(page); // run on its own (-g)
  const chat = await newChatId();
  const turn = await startSlowTurn(chat);
  // A tab follows the answer live (whichever instance serves it).
  await page.context().addCookies(cookie.split("; ").map((c) => ({ name: c.split("=")[0], value: c.slice(c.indexOf("=") + 1), url: LB })));
  await page.goto(`/chat/${chat}`);
  await expect(answer(page)).toContainText("Number 3.");
  const stopping = instances.get(turn.instance)!;
  const at = Date.now();
  await stopping.stop("SIGTERM");
  const took = Date.now() - at;
  instances.delete(turn.instance);
  expect(stopping.child.exitCode).toBe(0);
  expect(took).toBeLessThan(10_000);
  await turn.done;
  const shown = Math.max(...[...answerText(turn.text()).matchAll(/Number (\d+)\./g)].map((m) => Number(m[1])));
  expect(shown).toBeLessThan(119);
  // The other instance goes on with the answer from where it was shown, and finishes it; the tab follows.
  await expect(answer(page)).toContainText("Number 120. That is all.", { timeout: 30_000 });
  await expect(answer(page)).not.toContainText("interrupted");
  await expect.poll(() => status(turn.messageId), { timeout: 30_000 }).toBe("done");
  await page.reload();
  await expect(answer(page)).toContainText(`Number ${shown}.`);
  await expect(answer(page)).toContainText("Number 120. That is all.");
  await expect(answer(page)).not.toContainText("interrupted");
});

const instanceLog = (port: number) => path.join(dir, `instance-${port}.log`);

/** An instance's environment: the same for both (as a deployment's), each with a data directory of its own. */
function instanceEnv(dataDir: string): Record<string, string | undefined> {
  fs.mkdirSync(path.join(dir, dataDir));
  return {
    DATABASE_URL: dbUrl,
    REDIS_URL,
    // The shared secret key and public URL (the balancer's).
    PARLEY_SECRET_KEY: "a".repeat(64),
    PARLEY_URL: LB,
    PARLEY_TRUSTED_PROXIES: "127.0.0.1",
    OPENAI_BASE_URL: UPSTREAM,
    OPENAI_API_KEY: "sk-e2e-not-a-real-key-4242",
    PARLEY_DEFAULT_MODEL: "scripted-model",
    PARLEY_PROVIDER_KIND: "responses",
    PARLEY_CHAT_RATE_LIMIT: String(RATE_LIMIT),
    // A dead instance's answer is noticed within seconds instead of minutes.
    PARLEY_HEARTBEAT_MS: "500",
    PARLEY_DATA_DIR: path.join(dir, dataDir),
  };
}
