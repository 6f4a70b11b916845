// Start-up with a bad setting: the server process stops with exit code 1 and a message naming the
// variable, before it opens or creates anything (instrumentation.ts calls bootOrExit at boot).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parley-startup-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs bootOrExit in a child process, as the server's instrumentation does. */
function boot(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const base = { ...process.env };
  for (const k of ["DATABASE_URL", "REDIS_URL", "PARLEY_SECRET_KEY", "PARLEY_URL", "BETTER_AUTH_URL"]) delete base[k];
  const child = spawn(process.execPath, ["--import", "tsx", "-e", "require('./lib/startup.ts').bootOrExit()"], {
    env: { ...base, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
}

describe("start-up with a bad setting", () => {
  it("stops with exit code 1, names the variable, and opens no database", { timeout: 120_000 }, async () => {
    const dataDir = path.join(tmp, "data");
    const run = await boot({ PARLEY_DATA_DIR: dataDir, PARLEY_STEP_LIMIT: "abc", REDIS_URL: "localhost:6379" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Parley cannot start: Invalid configuration");
    expect(run.stderr).toContain('PARLEY_STEP_LIMIT: must be a whole number (got "abc")');
    expect(run.stderr).toContain('REDIS_URL: must be a redis: or rediss: URL (got "localhost:6379")');
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
