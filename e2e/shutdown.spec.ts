// Stopping the server while people are online (what every upgrade does), on a server of its own
// (scripts/start.mjs, as `npm start` runs it, on the embedded database): SIGTERM or SIGINT stops it
// within PARLEY_SHUTDOWN_MS (10 s by default) with exit code 0 while a signed-in tab holds its
// connections, an answer streaming at that moment is kept as far as it was shown and marked
// interrupted, and a second start on the same data directory comes up and shows the chat.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { answer, send, SIGNED_OUT } from "./helpers";
import { setUpstreamFixtures } from "./upstream-fixtures";

const PORT = Number(process.env.E2E_PORT || 3210) + 8;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const UPSTREAM_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_UPSTREAM_PORT || 4011)}`;
/** The default of PARLEY_SHUTDOWN_MS: a container runtime's SIGKILL follows SIGTERM after 10 s. */
const LIMIT_MS = 10_000;
/** A slow answer (about half a minute): long enough to stop the server while it streams. */
const SLOW = "Shutdown: count very slowly";
const SLOW_FIXTURE = {
  match: { userMessage: SLOW },
  response: { content: Array.from({ length: 80 }, (_, i) => `Number ${i + 1}.`).join(" ") },
  chunkSize: 6,
  streamingProfile: { ttft: 100, tps: 4 },
};

test.use(SIGNED_OUT);
test.describe.configure({ mode: "serial" });

let dataDir: string;
let server: ChildProcess | undefined;
let log = "";
/** The chat of the first test (its address). */
let chatUrl = "";

/** `npm start`'s script on this spec's data directory; resolves once it says it is ready. */
async function start() {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PARLEY_DATA_DIR: dataDir,
    OPENAI_BASE_URL: `${UPSTREAM_ORIGIN}/v1`,
    OPENAI_API_KEY: "sk-e2e-not-a-real-key-4242",
    PARLEY_DEFAULT_MODEL: "scripted-model",
    PARLEY_PROVIDER_KIND: "responses",
  };
  for (const key of ["DATABASE_URL", "REDIS_URL", "PARLEY_URL", "BETTER_AUTH_URL", "PARLEY_PROCESSES", "PARLEY_SECRET_KEY", "PARLEY_SHUTDOWN_MS"]) delete env[key];
  log = "";
  const child = spawn(process.execPath, ["scripts/start.mjs", "-p", String(PORT), "-H", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"], env });
  for (const s of [child.stdout!, child.stderr!]) s.setEncoding("utf8").on("data", (d: string) => (log += d));
  server = child;
  await expect.poll(() => log, { timeout: 150_000 }).toMatch(/Parley is ready at|cannot start/);
  expect(log).toContain("Parley is ready at");
}

/** Sends `signal` to the server; its exit code and how long it took to exit. */
async function stop(signal: NodeJS.Signals): Promise<{ code: number | null; ms: number }> {
  const child = server!;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const at = Date.now();
  child.kill(signal);
  // Waited for past the limit only so that a server that never stops fails here rather than hangs.
  const code = await Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), 3 * LIMIT_MS))]);
  if (code === "running") return { code: null, ms: Infinity };
  server = undefined;
  const ms = Date.now() - at;
  console.log(`${signal}: the server exited in ${ms} ms`);
  return { code, ms };
}

const highest = (text: string | null) => Math.max(0, ...[...(text ?? "").matchAll(/Number (\d+)\./g)].map((m) => Number(m[1])));

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-e2e-shutdown-"));
  await setUpstreamFixtures(UPSTREAM_ORIGIN, [SLOW_FIXTURE]);
  await start();
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once("exit", r));
    server.kill("SIGKILL");
    await exited;
  }
  await setUpstreamFixtures(UPSTREAM_ORIGIN);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function setUp(page: Page) {
  await page.goto(`${ORIGIN}/setup`);
  await page.getByLabel("Your name").fill("Stella Stop");
  await page.getByLabel("Email").fill("stella@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByLabel("Team name").fill("Shutdown Team");
  await page.getByRole("button", { name: "Create admin and team" }).click();
  await expect(page).toHaveURL(/\/chat$/);
}

test("SIGTERM mid-answer: the server exits 0 in time, and a restart shows the answer as far as it was shown, marked interrupted", async ({ page }) => {
  test.setTimeout(240_000);
  await setUp(page);
  await send(page, SLOW);
  await expect(answer(page)).toContainText("Number 3.");
  await expect(page).toHaveURL(/\/chat\/[\w-]+$/);
  chatUrl = page.url();

  const stopped = await stop("SIGTERM");
  const shown = highest(await answer(page).textContent());
  expect(stopped).toEqual({ code: 0, ms: expect.any(Number) });
  expect(stopped.ms).toBeLessThan(LIMIT_MS);
  expect(shown).toBeGreaterThanOrEqual(3);
  expect(shown).toBeLessThan(80);

  // A second start on the same data directory is not refused ("in use"), and shows what was shown.
  await start();
  await page.reload();
  await expect(answer(page)).toContainText(`Number ${shown}.`);
  await expect(answer(page)).toContainText("This answer was interrupted when the server stopped.");
  await expect(answer(page).getByRole("button", { name: "Continue" })).toBeVisible();
});

test("SIGINT with a signed-in tab open: the server exits 0 in time and starts again on the same data", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${ORIGIN}/sign-in`);
  await page.getByLabel("Email").fill("stella@example.com");
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/chat$/);
  await page.goto(chatUrl);
  await expect(answer(page)).toContainText("Number 3.");

  const stopped = await stop("SIGINT");
  expect(stopped).toEqual({ code: 0, ms: expect.any(Number) });
  expect(stopped.ms).toBeLessThan(LIMIT_MS);

  await start();
  await page.reload();
  await expect(answer(page)).toContainText("Number 3.");
});
