// npm run backup / npm run restore (scripts/backup.mjs, scripts/restore.mjs), run as an operator runs
// them, on throw-away databases: the embedded one always, PostgreSQL when TEST_DATABASE_URL is set
// (and pg_dump is installed). A backup restores into a new place with its rows and its key; neither
// command touches an embedded database a server holds, nor replaces a database or a key without --force.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DRIVERS, makeTempDir, rawQuery, removeDir, type TestDatabase } from "../test/support/test-databases";

const KEY = "q2Vx4fJ0c3KkqZr7W1s8pYbN5eH6tLmA9uDgCiRoXvE";
const OTHER_KEY = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const hasPgDump = spawnSync("pg_dump", ["--version"]).status === 0;

function run(script: "backup" | "restore", args: string[], env: Record<string, string | undefined>) {
  const base = { ...process.env };
  for (const k of ["DATABASE_URL", "PARLEY_DATA_DIR", "PARLEY_SECRET_KEY"]) delete base[k];
  const out = spawnSync(process.execPath, [`scripts/${script}.mjs`, ...args], { env: { ...base, ...env }, encoding: "utf8", timeout: 60_000 });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A migrated database with a chat-like table of its own and two rows in it. */
async function seeded(driver: (typeof DRIVERS)[number]): Promise<TestDatabase> {
  const t = await driver.fresh({ migrated: true });
  cleanups.push(() => t.cleanup());
  const db = await t.open();
  await rawQuery(db, `CREATE TABLE backup_probe (id int PRIMARY KEY, body text NOT NULL)`);
  await rawQuery(db, `INSERT INTO backup_probe VALUES (1, 'first answer'), (2, 'ünïcode ✓')`);
  await db.close();
  return t;
}

function tempDir() {
  const dir = makeTempDir("parley-backup-");
  cleanups.push(() => removeDir(dir));
  return dir;
}

describe("npm run backup / restore, embedded database", () => {
  const pglite = DRIVERS[0];

  it("restores a backup into a new data directory with its rows, migrations and key file", async () => {
    const source = await seeded(pglite);
    fs.writeFileSync(path.join(source.dir, "secret.key"), `${KEY}\n`, { mode: 0o600 });
    const out = path.join(tempDir(), "b");
    const backup = run("backup", ["--out", out], { PARLEY_DATA_DIR: source.dir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(fs.statSync(out).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ app: "parley", database: "pglite", key: "file" });
    expect(manifest.migrations.length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(source.dir, "parley.lock"))).toBe(false); // released

    const target = tempDir();
    const restore = run("restore", [out], { PARLEY_DATA_DIR: target });
    expect(restore.code, restore.stderr).toBe(0);
    expect(fs.readFileSync(path.join(target, "secret.key"), "utf8").trim()).toBe(KEY);
    expect(fs.statSync(path.join(target, "secret.key")).mode & 0o777).toBe(0o600);
    const { openDatabase } = await import("../lib/db/client");
    const db = await openDatabase({ dir: target });
    try {
      expect(await rawQuery(db, `SELECT id, body FROM backup_probe ORDER BY id`)).toEqual([
        { id: 1, body: "first answer" },
        { id: 2, body: "ünïcode ✓" },
      ]);
      const applied = await rawQuery<{ migration_name: string }>(db, `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`);
      expect(applied.map((r) => r.migration_name)).toEqual(manifest.migrations);
    } finally {
      await db.close();
    }

    // Again into the same place: refused without --force, then replaced with the old one kept aside.
    const again = run("restore", [out], { PARLEY_DATA_DIR: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already holds a database. Run with --force");
    expect(run("restore", [out, "--force"], { PARLEY_DATA_DIR: target }).code).toBe(0);
    expect(fs.readdirSync(target).some((f) => f.startsWith("pglite.replaced-"))).toBe(true);
  }, 120_000);

  it("refuses while a server holds the data directory, and without a key", async () => {
    const source = await seeded(pglite);
    const out = path.join(tempDir(), "b");
    const noKey = run("backup", ["--out", out], { PARLEY_DATA_DIR: source.dir });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("No secret key");
    expect(fs.existsSync(out)).toBe(false);

    // This test's own process stands for the server holding the lock.
    fs.writeFileSync(path.join(source.dir, "parley.lock"), String(process.pid));
    const held = run("backup", ["--out", out], { PARLEY_DATA_DIR: source.dir, PARLEY_SECRET_KEY: KEY });
    expect(held.code).toBe(1);
    expect(held.stderr).toContain(`Parley is running on ${source.dir} (pid ${process.pid})`);
    expect(fs.existsSync(out)).toBe(false);
    fs.rmSync(path.join(source.dir, "parley.lock"));

    // The key from PARLEY_SECRET_KEY is kept; a restore under another PARLEY_SECRET_KEY is refused.
    expect(run("backup", ["--out", out], { PARLEY_DATA_DIR: source.dir, PARLEY_SECRET_KEY: KEY }).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")).key).toBe("PARLEY_SECRET_KEY");
    const target = tempDir();
    const wrongKey = run("restore", [out], { PARLEY_DATA_DIR: target, PARLEY_SECRET_KEY: OTHER_KEY });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain("PARLEY_SECRET_KEY is not the key this backup's secrets were written with");
    expect(fs.existsSync(path.join(target, "pglite"))).toBe(false);

    // A damaged file is found before anything is written.
    fs.appendFileSync(path.join(out, "pglite.tar.gz"), "x");
    const damaged = run("restore", [out], { PARLEY_DATA_DIR: target });
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("is damaged");
  }, 120_000);
});

describe.skipIf(DRIVERS[1].skip || !hasPgDump)("npm run backup / restore, PostgreSQL", () => {
  const postgres = DRIVERS[1];

  it("restores a pg_dump backup into an empty database, and refuses one with tables without --force", async () => {
    const source = await seeded(postgres);
    const out = path.join(tempDir(), "b");
    const backup = run("backup", ["--out", out], { DATABASE_URL: source.url, PARLEY_SECRET_KEY: KEY });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8"))).toMatchObject({ database: "postgresql", key: "PARLEY_SECRET_KEY" });
    expect(fs.readFileSync(path.join(out, "secret.key"), "utf8").trim()).toBe(KEY);

    const target = await postgres.fresh();
    cleanups.push(() => target.cleanup());
    const restore = run("restore", [out], { DATABASE_URL: target.url, PARLEY_SECRET_KEY: KEY });
    expect(restore.code, restore.stderr).toBe(0);
    const db = await target.open();
    expect(await rawQuery(db, `SELECT id, body FROM backup_probe ORDER BY id`)).toEqual([
      { id: 1, body: "first answer" },
      { id: 2, body: "ünïcode ✓" },
    ]);
    await db.close();

    const again = run("restore", [out], { DATABASE_URL: target.url, PARLEY_SECRET_KEY: KEY });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/has \d+ tables\. Restore into an empty database, or run with --force/);
    expect(run("restore", [out, "--force"], { DATABASE_URL: target.url, PARLEY_SECRET_KEY: KEY }).code).toBe(0);
  }, 120_000);
});
