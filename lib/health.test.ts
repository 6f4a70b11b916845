// The health report names the database and its migrations, and says unhealthy when it does not answer.
import { afterAll, describe, expect, it } from "vitest";
import { readMigrations } from "./db/migrator";
import { health } from "./health";
import { shutdown } from "./startup";
import { DRIVERS, startTestApp } from "../test/support/test-app";

describe("health", () => {
  afterAll(() => shutdown());

  it("reports the version, the database kind and every applied migration", async () => {
    const app = await startTestApp(DRIVERS[0]);
    const report = await health();
    expect(report).toMatchObject({ ok: true, database: "pglite", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(report.migrations).toEqual(readMigrations().map((m) => m.name));
    await app.stop();
  }, 90_000); // a fresh PGlite database is migrated inside the test: slow on a loaded machine

  it("is unhealthy, with the reason, when PostgreSQL does not answer", async () => {
    await shutdown();
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/nothing";
    try {
      const report = await health();
      expect(report.ok).toBe(false);
      expect(report.database).toBe("postgresql");
      expect(report.error).toMatch(/Database unreachable/);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      await shutdown();
    }
  });
});
