// scripts/start.mjs refuses a setting of PARLEY_PROCESSES it cannot honour, before it starts anything,
// and says what to set.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

function start(env: Record<string, string>) {
  const base = { ...process.env };
  for (const k of ["DATABASE_URL", "REDIS_URL", "PARLEY_PROCESSES"]) delete base[k];
  const run = spawnSync(process.execPath, ["scripts/start.mjs", "-p", "1"], { env: { ...base, ...env }, encoding: "utf8", timeout: 20_000 });
  return { code: run.status, stderr: run.stderr };
}

describe("npm start with several processes", () => {
  it("refuses a count that is not a whole number from 1 to 256", () => {
    for (const value of ["two", "0", "1.5", "257"]) {
      const run = start({ PARLEY_PROCESSES: value });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`PARLEY_PROCESSES must be a whole number from 1 to 256, or "auto" (got "${value}")`);
    }
  });

  it("refuses several processes on the embedded database", () => {
    const run = start({ PARLEY_PROCESSES: "2", REDIS_URL: "redis://127.0.0.1:6379" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("PARLEY_PROCESSES=2 needs PostgreSQL: set DATABASE_URL");
  });

  it("refuses several processes without Redis to share live streams, stop signals and rate limits", () => {
    const two = start({ PARLEY_PROCESSES: "2", DATABASE_URL: "postgresql://localhost/parley" });
    expect(two.code).toBe(1);
    expect(two.stderr).toContain("PARLEY_PROCESSES=2 needs Redis: set REDIS_URL (processes share live streams, stop signals and rate limits through it)");
  });
});
