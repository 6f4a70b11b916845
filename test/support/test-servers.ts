// Test helpers: real MCP servers on loopback — @modelcontextprotocol/server-everything (Streamable HTTP
// or stdio; 2025-11-25), our failure-case server (e2e/mcp-test-server.mjs; 2025-11-25) and our
// 2026-07-28 server on the SDK v2 server package (e2e/mcp-server-2026.mjs). Not imported by the app. The
// servers' output is never printed (server-everything's get-env would show the environment).
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { DEFAULT_CALL_TIMEOUT_MS, type McpServerConfig } from "../../lib/mcp/config";

const ROOT = path.resolve(__dirname, "../..");
export const EVERYTHING_BIN = path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const TEST_SERVER_BIN = path.join(ROOT, "e2e/mcp-test-server.mjs");
export const SERVER_2026_BIN = path.join(ROOT, "e2e/mcp-server-2026.mjs");

export type RunningServer = { url: string; port: number; child: ChildProcess; stop(): Promise<void> };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function stopper(child: ChildProcess) {
  return () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
}

function waitFor(child: ChildProcess, stream: "stdout" | "stderr", pattern: RegExp, ms = 15_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL"); // not left running after the test gave up on it
      reject(new Error(`MCP test server did not start within ${ms} ms`));
    }, ms);
    child[stream]!.on("data", (d: Buffer) => {
      seen = (seen + d.toString()).slice(-4000);
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`MCP test server exited (${code}) before it was ready`));
    });
  });
}

/** The revision the failure-case server speaks in this run: PARLEY_TEST_MCP_REVISION (vitest.config.mts runs the MCP chat tests on both). */
export const TEST_REVISION = process.env.PARLEY_TEST_MCP_REVISION === "2026-07-28" ? "2026-07-28" : "2025-11-25";

/**
 * Our failure-case server on loopback (Streamable HTTP): the 2025-11-25 one, or the 2026-07-28 one
 * with the same tools when this run is for that revision. `port` 0 picks a free one.
 */
export async function startTestServer(opts: { port?: number; hang?: boolean; revision?: "2025-11-25" | "2026-07-28" } = {}): Promise<RunningServer> {
  if ((opts.revision ?? TEST_REVISION) === "2026-07-28" && !opts.hang) return startServer2026(opts);
  const args = [TEST_SERVER_BIN, "--port", String(opts.port ?? 0), "--host", "127.0.0.1", ...(opts.hang ? ["--hang"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  const m = await waitFor(child, "stdout", /(http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
  return { url: m[1], port: Number(m[2]), child, stop: stopper(child) };
}

/** Our 2026-07-28 server (stateless, refuses 2025 clients) on loopback. `port` 0 picks a free one. */
export async function startServer2026(opts: { port?: number } = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, [SERVER_2026_BIN, "--port", String(opts.port ?? 0), "--host", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
  const m = await waitFor(child, "stdout", /(http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
  return { url: m[1], port: Number(m[2]), child, stop: stopper(child) };
}

/** server-everything in Streamable HTTP mode; it binds all interfaces, so it is reached on loopback only. */
export async function startEverything(port?: number): Promise<RunningServer> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING_BIN, "streamableHttp"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PORT: String(p) } });
  await waitFor(child, "stderr", /listening on port/i);
  return { url: `http://127.0.0.1:${p}/mcp`, port: p, child, stop: stopper(child) };
}

/** server-everything in its older SSE mode (GET /sse + POST /message). */
export async function startEverythingSse(): Promise<RunningServer> {
  const p = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_BIN, "sse"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PORT: String(p) } });
  await waitFor(child, "stderr", /running on port/i);
  return { url: `http://127.0.0.1:${p}/sse`, port: p, child, stop: stopper(child) };
}

let seq = 0;
export function httpConfig(url: string, over: Partial<McpServerConfig> = {}): McpServerConfig {
  return { id: `test-${process.pid}-${seq++}`, name: "test", transport: "http", url, connectTimeoutMs: 5000, callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS, ...over };
}

export function stdioConfig(command: string, args: string[], over: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    id: `test-${process.pid}-${seq++}`,
    name: "stdio",
    transport: "stdio",
    command,
    args,
    connectTimeoutMs: 10_000,
    callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    ...over,
  };
}
