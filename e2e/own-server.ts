// A Parley server of a spec's own, started as `npm start` starts it (scripts/start.mjs, one process, the
// embedded database) on a fresh data directory, for the specs that need a first run or a restart:
// started, stopped with a signal (exit code and time taken), started again on the same data.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "@playwright/test";

/** Settings of the e2e run that must not reach a server of its own (it is the embedded default). */
const NOT_INHERITED = [
  "DATABASE_URL",
  "REDIS_URL",
  "PARLEY_URL",
  "BETTER_AUTH_URL",
  "PARLEY_PROCESSES",
  "PARLEY_SECRET_KEY",
  "PARLEY_SHUTDOWN_MS",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "PARLEY_DEFAULT_MODEL",
  "PARLEY_PROVIDER_KIND",
  "SMTP_URL",
  "SMTP_HOST",
];

export type OwnServer = {
  origin: string;
  /** Everything the server printed since it was last started. */
  log: () => string;
  /** Starts it (again, on the same data); resolves once it says it is ready. */
  start: () => Promise<void>;
  /** Sends `signal`; the exit code and the milliseconds it took (code null: still running after `waitMs`). */
  stop: (signal: NodeJS.Signals, waitMs?: number) => Promise<{ code: number | null; ms: number }>;
  /** Kills it if it runs, and deletes its data directory. */
  dispose: () => Promise<void>;
};

export function ownServer(name: string, port: number, env: Record<string, string> = {}): OwnServer {
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-e2e-${name}-`));
  let child: ChildProcess | undefined;
  let log = "";
  const running = () => child && child.exitCode === null && child.signalCode === null;

  return {
    origin,
    log: () => log,
    async start() {
      const vars: NodeJS.ProcessEnv = { ...process.env };
      for (const key of NOT_INHERITED) delete vars[key];
      Object.assign(vars, { PARLEY_DATA_DIR: dataDir }, env);
      log = "";
      child = spawn(process.execPath, ["scripts/start.mjs", "-p", String(port), "-H", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"], env: vars });
      for (const s of [child.stdout!, child.stderr!]) s.setEncoding("utf8").on("data", (d: string) => (log += d));
      await expect.poll(() => log, { timeout: 150_000 }).toMatch(/Parley is ready at|cannot start/);
      expect(log).toContain(`Parley is ready at ${origin}`);
    },
    async stop(signal, waitMs = 30_000) {
      const proc = child!;
      const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
      const at = Date.now();
      proc.kill(signal);
      // Waited for past any limit only so that a server that never stops fails the test rather than hangs it.
      const code = await Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), waitMs))]);
      return code === "running" ? { code: null, ms: Infinity } : { code, ms: Date.now() - at };
    },
    async dispose() {
      if (running()) {
        const exited = new Promise((r) => child!.once("exit", r));
        child!.kill("SIGKILL");
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
