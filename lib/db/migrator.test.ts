// The start-up migrator on both drivers: it applies prisma/migrations exactly once, records them as
// `prisma migrate deploy` would, rolls a failing migration back completely, and refuses to run over a
// failed run of another tool.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "./client";
import { appliedMigrations, migratePGlite, migratePostgres, migrationsDir, MigrationError, readMigrations, type Migration } from "./migrator";
import { DRIVERS, freshPostgres, makeTempDir, rawQuery, removeDir, tableExists, TEST_DATABASE_URL, type TestDatabase } from "../../test/support/test-databases";

type Record = {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
};

function migrate(db: Database, migrations?: Migration[]) {
  if (db.pglite) return migratePGlite(db.pglite, migrations);
  return migratePostgres(db.pool!, migrations);
}

function records(db: Database): Promise<Record[]> {
  return rawQuery<Record>(db, `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
}

/** A migrations folder in Prisma's layout, from name -> SQL. */
function writeMigrations(dir: string, files: { [name: string]: string }): void {
  for (const [name, sql] of Object.entries(files)) {
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
  }
}

const projectMigrations = readMigrations(path.resolve(__dirname, "../../prisma/migrations"));

describe("readMigrations", () => {
  it("reads prisma/migrations in name order with sha256 checksums of the files", () => {
    const dir = path.resolve(__dirname, "../../prisma/migrations");
    const names = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(projectMigrations.map((m) => m.name)).toEqual(names);
    expect(names.length).toBeGreaterThan(0);
    for (const m of projectMigrations) {
      const bytes = fs.readFileSync(path.join(dir, m.name, "migration.sql"));
      expect(m.checksum).toBe(crypto.createHash("sha256").update(bytes).digest("hex"));
      expect(m.name).toMatch(/^\d{14}_[a-z0-9_]+$/);
    }
  });

  it("defaults to prisma/migrations (or PARLEY_MIGRATIONS_DIR) and names a missing folder", () => {
    expect(migrationsDir()).toBe(path.resolve("prisma/migrations"));
    const missing = path.join(os.tmpdir(), `parley-missing-${process.pid}-${Date.now()}`);
    expect(() => readMigrations(missing)).toThrow(MigrationError);
    expect(() => readMigrations(missing)).toThrow(missing);
  });

  it("ignores folders without migration.sql and files at the top level", () => {
    const dir = makeTempDir();
    try {
      writeMigrations(dir, { "20300101000000_b": "SELECT 1;", "20200101000000_a": "SELECT 2;" });
      fs.mkdirSync(path.join(dir, "20250101000000_empty"));
      fs.writeFileSync(path.join(dir, "migration_lock.toml"), 'provider = "postgresql"\n');
      expect(readMigrations(dir).map((m) => m.name)).toEqual(["20200101000000_a", "20300101000000_b"]);
    } finally {
      removeDir(dir);
    }
  });
});

for (const driver of DRIVERS) {
  describe.skipIf(driver.skip)(`migrator on ${driver.name}`, () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });
    async function fresh(): Promise<{ t: TestDatabase; db: Database }> {
      const t = await driver.fresh();
      cleanups.push(() => t.cleanup());
      return { t, db: await t.open() };
    }
    function tempMigrations(files: { [name: string]: string }): { dir: string; migrations: () => Migration[] } {
      const dir = makeTempDir("parley-migrations-");
      cleanups.push(() => removeDir(dir));
      writeMigrations(dir, files);
      return { dir, migrations: () => readMigrations(dir) };
    }

    it("applies every migration to an empty database, records each like prisma migrate, and is idempotent", async () => {
      const { db } = await fresh();
      const before = Date.now();
      const result = await migrate(db, projectMigrations);
      expect(result).toEqual({ applied: projectMigrations.map((m) => m.name), total: projectMigrations.length });

      const rows = await records(db);
      expect(rows.map((r) => r.migration_name)).toEqual(projectMigrations.map((m) => m.name));
      for (const [i, r] of rows.entries()) {
        const file = path.resolve(__dirname, "../../prisma/migrations", r.migration_name, "migration.sql");
        expect(r.checksum).toBe(crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex"));
        expect(r.checksum).toBe(projectMigrations[i].checksum);
        expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(r.finished_at).toBeInstanceOf(Date);
        expect(r.started_at).toBeInstanceOf(Date);
        expect(r.finished_at!.getTime()).toBeGreaterThanOrEqual(r.started_at.getTime() - 1000);
        expect(r.started_at.getTime()).toBeGreaterThanOrEqual(before - 5000);
        expect(r.rolled_back_at).toBeNull();
        expect(r.logs).toBeNull();
        expect(r.applied_steps_count).toBe(1);
      }
      // The schema is there: the tables of the init migration exist.
      expect(await tableExists(db, "user")).toBe(true);
      expect(await tableExists(db, "Block")).toBe(true);

      // What /api/health reports.
      expect(await appliedMigrations((sql) => rawQuery(db, sql))).toEqual(projectMigrations.map((m) => m.name));

      const again = await migrate(db, projectMigrations);
      expect(again).toEqual({ applied: [], total: projectMigrations.length });
      expect(await records(db)).toEqual(rows);
    }, 120_000); // every migration, on PGlite (wasm): ~35 s on a busy 2-core machine

    it("the _prisma_migrations table has prisma migrate's columns and types", async () => {
      const { db } = await fresh();
      await migrate(db, projectMigrations);
      const cols = await rawQuery<{ column_name: string; data_type: string; is_nullable: string; len: number | null }>(
        db,
        `SELECT column_name, data_type, is_nullable, character_maximum_length AS len
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '_prisma_migrations'
          ORDER BY ordinal_position`,
      );
      expect(cols).toEqual([
        { column_name: "id", data_type: "character varying", is_nullable: "NO", len: 36 },
        { column_name: "checksum", data_type: "character varying", is_nullable: "NO", len: 64 },
        { column_name: "finished_at", data_type: "timestamp with time zone", is_nullable: "YES", len: null },
        { column_name: "migration_name", data_type: "character varying", is_nullable: "NO", len: 255 },
        { column_name: "logs", data_type: "text", is_nullable: "YES", len: null },
        { column_name: "rolled_back_at", data_type: "timestamp with time zone", is_nullable: "YES", len: null },
        { column_name: "started_at", data_type: "timestamp with time zone", is_nullable: "NO", len: null },
        { column_name: "applied_steps_count", data_type: "integer", is_nullable: "NO", len: null },
      ]);
    });

    it("a failing migration throws MigrationError naming it and leaves the database as it was", async () => {
      const { db } = await fresh();
      const good = "20300101000000_good";
      const bad = "20300102000000_bad";
      const later = "20300103000000_later";
      const tmp = tempMigrations({
        [good]: `CREATE TABLE "good_table" ("id" INTEGER NOT NULL, CONSTRAINT "good_table_pkey" PRIMARY KEY ("id"));\nINSERT INTO "good_table" VALUES (1);\n`,
        [bad]: `CREATE TABLE "half_done" ("id" INTEGER);\nINSERT INTO "good_table" VALUES (2);\nINSERT INTO "no_such_table" VALUES (1);\n`,
        [later]: `CREATE TABLE "later_table" ("id" INTEGER);\n`,
      });

      const err = await migrate(db, tmp.migrations()).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).migration).toBe(bad);
      expect((err as Error).message).toContain(bad);
      expect((err as Error).message).toMatch(/no_such_table/);

      // The failed migration left nothing behind; the earlier one stays; the later one never ran.
      expect(await tableExists(db, "half_done")).toBe(false);
      expect(await tableExists(db, "later_table")).toBe(false);
      expect(await tableExists(db, "good_table")).toBe(true);
      expect(await rawQuery(db, `SELECT "id" FROM "good_table" ORDER BY "id"`)).toEqual([{ id: 1 }]);
      const rows = await records(db);
      expect(rows.map((r) => r.migration_name)).toEqual([good]);
      expect(rows[0].finished_at).toBeInstanceOf(Date);

      // The operator fixes the migration: the next start applies it and the one after it.
      fs.writeFileSync(path.join(tmp.dir, bad, "migration.sql"), `CREATE TABLE "half_done" ("id" INTEGER);\n`);
      const retry = await migrate(db, tmp.migrations());
      expect(retry.applied).toEqual([bad, later]);
      expect(await tableExists(db, "half_done")).toBe(true);
      expect((await records(db)).map((r) => r.migration_name)).toEqual([good, bad, later]);
    });

    it("refuses to run over a migration another tool started but never finished", async () => {
      const { db } = await fresh();
      await migrate(db, projectMigrations);
      const tmp = tempMigrations({ "20300101000000_next": `CREATE TABLE "next_table" ("id" INTEGER);\n` });
      await rawQuery(
        db,
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count)
         VALUES ($1, $2, NULL, $3, 'error: boom', now(), 0)`,
        [crypto.randomUUID(), "0".repeat(64), "20300101000000_next"],
      );
      const err = await migrate(db, [...projectMigrations, ...tmp.migrations()]).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as MigrationError).migration).toBe("20300101000000_next");
      expect((err as Error).message).toMatch(/20300101000000_next was started but never finished/);
      expect((err as Error).message).toMatch(/prisma migrate resolve/);
      expect(await tableExists(db, "next_table")).toBe(false);

      // `prisma migrate resolve --rolled-back` marks it rolled back: then the migrator applies it.
      await rawQuery(db, `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE finished_at IS NULL`);
      const result = await migrate(db, [...projectMigrations, ...tmp.migrations()]);
      expect(result.applied).toEqual(["20300101000000_next"]);
      expect(await tableExists(db, "next_table")).toBe(true);
    });

    it("does not re-apply a migration edited after it was applied, and says so", async () => {
      const { db } = await fresh();
      const tmp = tempMigrations({ "20300101000000_one": `CREATE TABLE "one" ("id" INTEGER);\n` });
      await migrate(db, tmp.migrations());
      fs.writeFileSync(path.join(tmp.dir, "20300101000000_one", "migration.sql"), `CREATE TABLE "one" ("id" BIGINT);\n`);
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      try {
        expect(await migrate(db, tmp.migrations())).toEqual({ applied: [], total: 1 });
        expect(warn).toHaveBeenCalledWith(expect.stringContaining("20300101000000_one was modified"));
      } finally {
        warn.mockRestore();
      }
    });
  });
}

describe.skipIf(!TEST_DATABASE_URL)("migrator on PostgreSQL, two processes at once", () => {
  let t: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await freshPostgres();
    dir = makeTempDir("parley-migrations-");
  });
  afterAll(async () => {
    await t?.cleanup();
    if (dir) removeDir(dir);
  });

  it("two migratePostgres calls on separate pools both succeed and apply each migration once", async () => {
    // The project's migrations plus a slow one, so the two runs surely overlap.
    for (const m of projectMigrations) writeMigrations(dir, { [m.name]: m.sql });
    writeMigrations(dir, { "20991231000000_slow": `SELECT pg_sleep(0.3);\nCREATE TABLE "slow_marker" ("id" INTEGER);\n` });
    const migrations = readMigrations(dir);
    const a = new pg.Pool({ connectionString: t.url, max: 2 });
    const b = new pg.Pool({ connectionString: t.url, max: 2 });
    try {
      const [ra, rb] = await Promise.all([migratePostgres(a, migrations), migratePostgres(b, migrations)]);
      expect([...ra.applied, ...rb.applied].sort()).toEqual(migrations.map((m) => m.name));
      expect(ra.applied.length === 0 || rb.applied.length === 0).toBe(true);
      const { rows } = await a.query(`SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1 ORDER BY 1`);
      expect(rows).toEqual(migrations.map((m) => ({ migration_name: m.name, n: 1 })));
      // The advisory lock was released.
      const locks = await a.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      expect(locks.rows[0].n).toBe(0);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it("a connection lost in the middle of a migration is reported as that migration's failure", async () => {
    const t2 = await freshPostgres();
    const dir2 = makeTempDir("parley-migrations-");
    const pool = new pg.Pool({ connectionString: t2.url, max: 1 });
    pool.on("error", () => {}); // the terminated idle client
    try {
      writeMigrations(dir2, { "20300101000000_slow": `CREATE TABLE "slow" ("id" INTEGER);\nSELECT pg_sleep(5);\n` });
      const run = migratePostgres(pool, readMigrations(dir2)).then(
        () => undefined,
        (e: unknown) => e,
      );
      // Like a database restart: end the migrating session from outside while it sleeps.
      const admin = new pg.Client({ connectionString: t2.url });
      await admin.connect();
      try {
        for (let i = 0; i < 100; i++) {
          const { rows } = await admin.query(
            `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()`,
          );
          if (rows.length) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const err = await run;
        expect(err).toBeInstanceOf(MigrationError);
        expect((err as MigrationError).migration).toBe("20300101000000_slow");
        const left = await admin.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'slow'`);
        expect(left.rows[0].n).toBe(0);
      } finally {
        await admin.end();
      }
      // The pool is usable again, and the next start applies the migration.
      writeMigrations(dir2, { "20300101000000_slow": `CREATE TABLE "slow" ("id" INTEGER);\n` });
      expect((await migratePostgres(pool, readMigrations(dir2))).applied).toEqual(["20300101000000_slow"]);
    } finally {
      await pool.end();
      await t2.cleanup();
      removeDir(dir2);
    }
  });
});
