// Several server processes on one port (scripts/start.mjs, PARLEY_PROCESSES=2) on PostgreSQL and
// Redis: requests are spread over both, they count one user's messages together, and a process that
// dies is replaced while the other keeps answering, and SIGTERM stops them all in time with a signed-in
// tab open. Needs TEST_DATABASE_URL and TEST_REDIS_URL (CI sets both); skipped without them.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { SIGNED_OUT } from "./helpers";

const DB_URL = process.env.TEST_DATABASE_URL?.trim();
const REDIS_URL = process.env.TEST_REDIS_URL?.trim();
const PORT = Number(process.env.E2E_PORT || 3210) + 7;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const UPSTREAM = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}/v1`;
const RATE_LIMIT = 3;

test.skip(!DB_URL || !REDIS_URL, "needs TEST_DATABASE_URL and TEST_REDIS_URL");
test.describe.configure({ mode: "serial" });
test.use(SIGNED_OUT);

let server: ChildProcess;
let dbName: string;
let dataDir: string;
let cookie = "";

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DB_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** One request on a connection of its own, so that the cluster hands it to the next process in turn. */
function call(method: string, url: string, body?: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${ORIGIN}${url}`, { method, agent: false, headers: { cookie, origin: ORIGIN, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The server processes under the primary (node:cluster workers). */
function workers(): number[] {
  const dir = `/proc/${server.pid}/task`;
  return fs
    .readdirSync(dir)
    .flatMap((t) =>
      fs
        .readFileSync(path.join(dir, t, "children"), "utf8")
        .trim()
        .split(/\s+/),
    )
    .filter(Boolean)
    .map(Number);
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const url = new URL(DB_URL!);
  dbName = `parley_e2e_cluster_${process.pid}_${Date.now()}`;
  await admin((c) => c.query(`CREATE DATABASE "${dbName}"`));
  url.pathname = `/${dbName}`;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-cluster-"));
  server = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PARLEY_PROCESSES: "2",
      DATABASE_URL: url.toString(),
      REDIS_URL,
      PARLEY_DATA_DIR: dataDir,
      PARLEY_SECRET_KEY: "",
      OPENAI_BASE_URL: UPSTREAM,
      OPENAI_API_KEY: "sk-e2e-not-a-real-key-4242",
      PARLEY_DEFAULT_MODEL: "scripted-model",
      PARLEY_PROVIDER_KIND: "responses",
      PARLEY_CHAT_RATE_LIMIT: String(RATE_LIMIT),
    },
  });
  await expect.poll(async () => (await call("GET", "/api/health").catch(() => ({ status: 0 }))).status, { timeout: 90_000 }).toBe(200);
  await expect.poll(() => workers().length, { timeout: 60_000 }).toBe(2);
});

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
  if (dbName) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The admin, created through setup; signed in on `page`. */
async function setUp(page: Page) {
  await page.goto(`${ORIGIN}/setup`);
  await page.getByLabel("Your name").fill("Cluster Admin");
  await page.getByLabel("Email").fill("cluster@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByLabel("Team name").fill("Cluster Team");
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await page.waitForURL(/\/chat$/);
  cookie = (await page.context().cookies(ORIGIN)).map((c) => `${c.name}=${c.value}`).join("; ");
}

test("two processes share one port and count a user's messages together", async ({ page }) => {
  await setUp(page);

  const chats: string[] = [];
  for (let i = 0; i <= RATE_LIMIT; i++) {
    const chat = await call("POST", "/api/chats", {});
    expect(chat.status).toBe(201);
    chats.push(JSON.parse(chat.text).id);
  }
  // Each message on a new connection: the processes take them in turn. Counted per process, each
  // would allow RATE_LIMIT and all of these would be answered.
  const statuses: number[] = [];
  for (const [i, id] of chats.entries()) {
    const turn = await call("POST", "/api/chat", { id, message: { role: "user", parts: [{ type: "text", text: `hello ${i}` }] } });
    statuses.push(turn.status);
    if (turn.status === 200) expect(turn.text).toContain("I am a scripted model.");
    else {
      expect(turn.headers["retry-after"]).toMatch(/^\d+$/);
      expect(JSON.parse(turn.text).error).toMatchObject({ message: expect.stringMatching(/sending messages too fast/) });
    }
  }
  expect(statuses).toEqual([...Array(RATE_LIMIT).fill(200), 429]);
});

test("a process that dies is replaced, and the other keeps answering meanwhile", async () => {
  const before = workers();
  expect(before).toHaveLength(2);
  process.kill(before[0], "SIGKILL");
  // Once the primary has seen it go (requests it had already handed to it are lost with it),
  // signed-in requests go on through the survivor: the session lives in the shared database.
  await expect.poll(() => workers().includes(before[0]), { timeout: 10_000 }).toBe(false);
  for (let i = 0; i < 4; i++) expect((await call("GET", "/api/chats")).status).toBe(200);
  await expect.poll(() => workers().filter((pid) => !before.includes(pid)).length, { timeout: 30_000 }).toBe(1);
  expect(workers()).toHaveLength(2);
  expect(server.exitCode).toBeNull();
});

test("SIGTERM with a signed-in tab open: every process stops, and the server exits 0 within 10 s", async ({ page }) => {
  test.setTimeout(120_000);
  if (cookie) await page.context().addCookies(cookie.split("; ").map((c) => ({ name: c.split("=")[0], value: c.slice(c.indexOf("=") + 1), url: ORIGIN })));
  else await setUp(page); // run on its own (-g)
  await page.goto(`${ORIGIN}/chat`);
  await expect(page.getByRole("heading", { name: "New chat", level: 1 })).toBeVisible();
  const pids = workers();
  const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
  const at = Date.now();
  server.kill("SIGTERM");
  expect(await exited).toBe(0);
  expect(Date.now() - at).toBeLessThan(10_000);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  expect(pids.filter(alive)).toEqual([]);
});
