// vitest global setup: migrates one database per driver once per run, so each integration test file
// copies a migrated database instead of applying every migration again (13 migrations cost seconds per
// file on PGlite). PGlite: a migrated data directory that freshPGlite copies. PostgreSQL (when
// TEST_DATABASE_URL is set): a migrated database that freshPostgres names as CREATE DATABASE's TEMPLATE.
// Their names reach the test processes through the environment (test/support/test-databases.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { migratePGlite, migratePostgres, readMigrations } from "../../lib/db/migrator";
import { pgliteExtensions } from "../../lib/db/pglite-store";
import { ensureVectorExtension } from "../../lib/knowledge/vector-store";
import { withAdmin } from "./test-databases";

const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");

async function migratedPGlite(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-migrated-"));
  const db = new PGlite(dir, { extensions: await pgliteExtensions() }); // as the app opens it: a migration may create them
  await db.waitReady;
  await migratePGlite(db, readMigrations(migrationsDir));
  await db.close();
  return dir;
}

async function migratedPostgres(adminUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `parley_tpl_${crypto.randomBytes(6).toString("hex")}`;
  const admin = (sql: string) => withAdmin((c) => c.query(sql)).then(() => undefined);
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    // As start-up does: a server without pgvector fails here, saying what to install.
    const sql = {
      $queryRawUnsafe: async (text: string, ...params: unknown[]) => (await pool.query(text, params)).rows,
      $executeRawUnsafe: async (text: string, ...params: unknown[]) => (await pool.query(text, params)).rowCount ?? 0,
    };
    await ensureVectorExtension(sql as unknown as Parameters<typeof ensureVectorExtension>[0], "postgresql");
    await migratePostgres(pool, readMigrations(migrationsDir));
  } finally {
    await pool.end();
  }
  return { name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

export default async function setup() {
  const pgliteDir = await migratedPGlite();
  process.env.PARLEY_TEST_PGLITE_TEMPLATE = pgliteDir;
  const adminUrl = process.env.TEST_DATABASE_URL?.trim();
  const postgres = adminUrl ? await migratedPostgres(adminUrl) : undefined;
  if (postgres) process.env.PARLEY_TEST_POSTGRES_TEMPLATE = postgres.name;
  return async () => {
    fs.rmSync(pgliteDir, { recursive: true, force: true });
    await postgres?.drop();
  };
}
