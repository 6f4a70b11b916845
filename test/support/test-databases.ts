// Test helper: fresh, throwaway databases for integration tests.
// - PGlite: a new data directory in a temp dir (opened through openDatabase, like the app does).
// - PostgreSQL: only when TEST_DATABASE_URL is set (e.g. postgresql://postgres@127.0.0.1:5432/postgres):
//   CREATE DATABASE parley_t_<random> on that server, and DROP ... WITH (FORCE) afterwards.
// Not imported by the app.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "../../lib/db/client";

/** The PostgreSQL server to make test databases on; PostgreSQL tests are skipped when unset. */
export const TEST_DATABASE_URL: string | undefined = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** A new empty directory under the system temp dir. */
export function makeTempDir(prefix = "parley-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

// initdb costs ~3 s; writing out a copy of a fresh, cleanly closed data directory ~0.1 s. The copy is
// kept in memory (one per test process), so nothing is left on disk when a test process is killed.
type TemplateFile = { rel: string; data?: Buffer };
let template: Promise<TemplateFile[]> | undefined;

function pgliteTemplate(): Promise<TemplateFile[]> {
  template ??= (async () => {
    const dir = makeTempDir("parley-tpl-");
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      const db = new PGlite(path.join(dir, "pglite"));
      await db.waitReady;
      await db.close();
      // Directories too: PostgreSQL needs its empty ones (pg_tblspc, pg_twophase, ...).
      return fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => {
          const file = path.join(e.parentPath, e.name);
          return { rel: path.relative(dir, file), data: e.isFile() ? fs.readFileSync(file) : undefined };
        });
    } finally {
      removeDir(dir);
    }
  })();
  return template;
}

async function writeTemplate(dir: string): Promise<void> {
  for (const f of await pgliteTemplate()) {
    const file = path.join(dir, f.rel);
    if (!f.data) {
      fs.mkdirSync(file, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, f.data);
  }
}

export type TestDatabase = {
  kind: "pglite" | "postgresql";
  /** The data directory (PGlite) or an empty scratch directory (PostgreSQL), removed by cleanup. */
  dir: string;
  /** The connection URL (PostgreSQL only). */
  url?: string;
  /** Opens the database through the app's openDatabase. */
  open(): Promise<Database>;
  /** Closes what open() opened, and removes the database and the directory. */
  cleanup(): Promise<void>;
};

/** Set by test/support/global-setup.ts: a migrated PGlite directory and a migrated PostgreSQL database. */
const MIGRATED_PGLITE = process.env.PARLEY_TEST_PGLITE_TEMPLATE;
const MIGRATED_POSTGRES = process.env.PARLEY_TEST_POSTGRES_TEMPLATE;

/**
 * A new PGlite database in a temp dir: empty (nothing migrated), or with `migrated` a copy of the run's
 * migrated one when there is one (start-up then finds every migration applied).
 */
async function freshPGlite(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const dir = makeTempDir();
  if (opts.migrated && MIGRATED_PGLITE && fs.existsSync(MIGRATED_PGLITE)) fs.cpSync(MIGRATED_PGLITE, path.join(dir, "pglite"), { recursive: true });
  else await writeTemplate(dir);
  const opened: Database[] = [];
  return {
    kind: "pglite",
    dir,
    async open() {
      const db = await openDatabase({ dir });
      opened.push(db);
      return db;
    },
    async cleanup() {
      for (const db of opened.splice(0)) await db.close().catch(() => {});
      removeDir(dir);
    },
  };
}

function adminUrlOrThrow(): string {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  return TEST_DATABASE_URL;
}

/** Runs `fn` with a client of TEST_DATABASE_URL's server (to create and drop databases). */
export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrlOrThrow() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a PostgreSQL database on TEST_DATABASE_URL's server (empty, or a copy of `template`); returns its URL and a drop function. */
async function createPostgresDatabase(template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `parley_t_${crypto.randomBytes(6).toString("hex")}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`));
  const url = new URL(adminUrlOrThrow());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** A new PostgreSQL database (requires TEST_DATABASE_URL): empty, or with `migrated` a copy of the run's migrated one. */
export async function freshPostgres(opts: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const created = await createPostgresDatabase(opts.migrated ? MIGRATED_POSTGRES : undefined);
  const dir = makeTempDir();
  const opened: Database[] = [];
  return {
    kind: "postgresql",
    dir,
    url: created.url,
    async open() {
      const db = await openDatabase({ url: created.url });
      opened.push(db);
      return db;
    },
    async cleanup() {
      for (const db of opened.splice(0)) await db.close().catch(() => {});
      await created.drop();
      removeDir(dir);
    },
  };
}

/** The drivers to run a suite on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const DRIVERS = [
  { name: "PGlite", kind: "pglite" as const, skip: false, fresh: freshPGlite },
  { name: "PostgreSQL", kind: "postgresql" as const, skip: !TEST_DATABASE_URL, fresh: freshPostgres },
];

/** The drivers that run here (for `describe.each(DATABASES)`): PGlite, and PostgreSQL when TEST_DATABASE_URL is set. */
export const DATABASES = DRIVERS.filter((d) => !d.skip);

/** Runs SQL on the raw driver of an opened database (below Prisma). */
export async function rawQuery<T = Record<string, unknown>>(db: Database, sql: string, params?: unknown[]): Promise<T[]> {
  if (db.pglite) return (await db.pglite.query<T>(sql, params)).rows;
  if (db.pool) return (await db.pool.query(sql, params)).rows as T[];
  throw new Error("database has no raw driver");
}

/** Whether a table exists in the public schema. */
export async function tableExists(db: Database, table: string): Promise<boolean> {
  const rows = await rawQuery<{ n: number }>(db, `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = $1`, [
    table,
  ]);
  return rows[0].n > 0;
}
