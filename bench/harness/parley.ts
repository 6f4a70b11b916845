// Parley under test: `npm start` (scripts/start.mjs) of a production build on PGlite or PostgreSQL
// (one or several processes), first-run setup in a real browser, chats, turns read as SSE, stop.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { BenchOptions, Db } from "../options";
import { request, streamSse, type StreamOptions, type StreamResult } from "./http";
import { freePort, killGroup, onCleanup, sleep, spawnGroup } from "./lifecycle";
import { CHROMIUM_EXECUTABLE } from "../../test/support/chromium";
import { API_KEY, MODEL, type Upstream } from "./upstream";

export interface Server {
  kind: Db;
  /** Which build: "current", or the compare baseline's label. */
  target: string;
  appDir: string;
  port: number;
  origin: string;
  env: NodeJS.ProcessEnv;
  logFile: string;
  nodeArgs: string[];
  processes: number;
  restarts: number;
  child?: ChildProcess;
  pid: number;
  startMs: number;
  cookie: string;
  backendPids?: () => Promise<number[]>;
}

/** Variables of the bench's own environment a server must not inherit. */
const STRIP = [
  "DATABASE_URL",
  "REDIS_URL",
  "PARLEY_URL",
  "BETTER_AUTH_URL",
  "PARLEY_SECRET_KEY",
  "BETTER_AUTH_SECRET",
  "PORT",
  "HOSTNAME",
  "NODE_OPTIONS",
  "NEXT_DIST_DIR",
  "PARLEY_PROCESSES",
];

export async function startParley(
  o: BenchOptions,
  up: Upstream,
  { kind, target, appDir, databaseUrl }: { kind: Db; target: string; appDir: string; databaseUrl?: string },
): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-${kind}-`));
  onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, "data");
  fs.mkdirSync(dataDir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of STRIP) delete env[k];
  // PGlite belongs to one process; several need PostgreSQL and Redis.
  const processes = databaseUrl ? o.processes : 1;
  Object.assign(env, {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PARLEY_DATA_DIR: dataDir,
    OPENAI_BASE_URL: `${up.url}/v1`,
    OPENAI_API_KEY: API_KEY,
    PARLEY_DEFAULT_MODEL: MODEL,
    PARLEY_PROVIDER_KIND: "chat",
    PARLEY_CHAT_RATE_LIMIT: "1000000",
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(processes > 1 ? { PARLEY_PROCESSES: String(processes), REDIS_URL: o.redisUrl } : {}),
  });
  const server: Server = {
    kind,
    target,
    appDir,
    port,
    origin: `http://127.0.0.1:${port}`,
    env,
    logFile: path.join(dir, "server.log"),
    nodeArgs: o.serverNodeArgs,
    processes,
    restarts: 0,
    pid: 0,
    startMs: NaN,
    cookie: "",
  };
  await launch(server);
  return server;
}

export function tail(file: string, lines = 25): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Starts (or restarts, on the same port, data and database) the server and waits until it is healthy. */
export async function launch(server: Server): Promise<void> {
  const fd = fs.openSync(server.logFile, "a");
  const child = spawnGroup([...server.nodeArgs, path.join(server.appDir, "scripts/start.mjs"), "-p", String(server.port), "-H", "127.0.0.1"], {
    cwd: server.appDir,
    env: server.env,
    stdio: ["ignore", fd, fd],
  });
  fs.closeSync(fd);
  onCleanup(() => killGroup(child));
  server.child = child;
  server.pid = child.pid!;
  const t = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${server.kind} server exited (${child.exitCode}):\n${tail(server.logFile)}`);
    try {
      const res = await request("GET", `${server.origin}/api/health`, { timeoutMs: 5000 });
      if (res.status === 200) break;
    } catch {
      /* not up yet */
    }
    if (performance.now() - t > 90_000) throw new Error(`the ${server.kind} server did not become healthy in 90 s:\n${tail(server.logFile)}`);
    await sleep(200);
  }
  server.startMs = performance.now() - t;
}

/** First-run setup in a real browser (the /setup form), then the session cookies for plain HTTP. */
export async function setupAdmin(server: Server): Promise<void> {
  const { chromium } = await import("@playwright/test");
  // The same browser the e2e tests use.
  const browser = await chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.origin}/setup`, { timeout: 60_000 });
    await page.getByLabel("Your name").fill("Bench Admin");
    await page.getByLabel("Email").fill("bench@example.com");
    await page.getByLabel("Password").fill("a long enough bench password");
    await page.getByLabel("Team name").fill("Bench Team");
    await page.getByRole("button", { name: "Create admin and team" }).click();
    await page.waitForURL(/\/chat$/, { timeout: 60_000 });
    const cookies = await context.cookies(server.origin);
    if (!cookies.length) throw new Error("setup finished without a session cookie");
    server.cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  } finally {
    await browser.close();
  }
}

export const authHeaders = (server: Server) => ({ cookie: server.cookie, origin: server.origin });

export function get(server: Server, url: string) {
  return request("GET", `${server.origin}${url}`, { headers: authHeaders(server), timeoutMs: 60_000 });
}

export async function createChats(server: Server, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 20) {
    // Once more on a lost connection: a kept-alive socket the server closed just as it was reused.
    const create = () => request("POST", `${server.origin}/api/chats`, { headers: authHeaders(server), body: "{}" });
    const res = await Promise.all(Array.from({ length: Math.min(20, n - i) }, () => create().catch(create)));
    for (const r of res) {
      if (r.status !== 201 && r.status !== 200) throw new Error(`POST /api/chats: HTTP ${r.status} ${r.text.slice(0, 200)}`);
      ids.push((JSON.parse(r.text) as { id: string }).id);
    }
  }
  return ids;
}

/** The text of a UI message stream event (Parley's and the bare relay's); throws on an error event. */
export function uiText(ev: Record<string, unknown>): string | undefined {
  if (ev.type === "text-delta") return ev.delta as string;
  if (ev.type === "error") throw new Error(`error chunk: ${String(ev.errorText)}`);
  if (ev.type === "data-error") {
    const d = ev.data as { code?: string; message?: string } | undefined;
    throw new Error(`data-error: ${d?.code}: ${d?.message}`);
  }
  return undefined;
}

/** One turn: the question "bench <label>" in a chat, its answer read as the browser reads it. */
export function parleyStream(server: Server, acceptEncoding: string, chatId: string, label: string, opts?: StreamOptions): Promise<StreamResult> {
  return streamSse(
    `${server.origin}/api/chat`,
    { id: chatId, message: { role: "user", parts: [{ type: "text", text: `bench ${label}` }] } },
    { ...authHeaders(server), "accept-encoding": acceptEncoding },
    uiText,
    opts,
  );
}

export const stopTurn = (server: Server, chatId: string) =>
  request("POST", `${server.origin}/api/chat/${chatId}/stop`, { headers: authHeaders(server), body: "{}", timeoutMs: 60_000 }).catch(() => undefined);

/** After a restart: one turn, stopped soon after it starts, so the next phase does not pay for loading code. */
export async function warmUpAfterRestart(server: Server, acceptEncoding: string): Promise<void> {
  const [id] = await createChats(server, 1);
  const r = await parleyStream(server, acceptEncoding, id, `${server.kind} rewarm`, { onHeaders: () => sleep(300).then(() => stopTurn(server, id)) });
  if (r.error) throw new Error(`${server.kind}: a warm-up turn after the restart failed: ${r.error}\n${tail(server.logFile)}`);
}

/** Warnings and errors the server logged (the log itself is removed with the temp directory). */
export function logProblems(file: string): { count: number; first: string[] } {
  let lines: string[] = [];
  try {
    lines = fs.readFileSync(file, "utf8").split("\n");
  } catch {
    return { count: 0, first: [] };
  }
  const bad = lines.filter((l) => /error|warn|\[turn\]|\[block-writer\]|\[db\]|unhandled|exception/i.test(l));
  return { count: bad.length, first: bad.slice(0, 3).map((l) => l.slice(0, 240)) };
}
