// Applies prisma/migrations/*/migration.sql at start-up, below Prisma, straight on the driver, and
// records each in _prisma_migrations exactly as `prisma migrate deploy` does (so either tool can take
// over). Each migration runs in one transaction with its record: a failure leaves the database as it
// was. On PostgreSQL an advisory lock serialises app processes that start together.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Pool, PoolClient } from "pg";
import { config } from "../config";

export type Migration = { name: string; sql: string; checksum: string };
export type MigrationResult = { applied: string[]; total: number };

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

/** Same key `prisma migrate` uses for its advisory lock, so the CLI and the app never interleave. */
const ADVISORY_LOCK_KEY = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

const INSERT_RECORD = `INSERT INTO "_prisma_migrations"
  ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count")
  VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`;

export function migrationsDir(): string {
  return path.resolve(/* turbopackIgnore: true */ config().PARLEY_MIGRATIONS_DIR);
}

export function readMigrations(dir = migrationsDir()): Migration[] {
  if (!fs.existsSync(/* turbopackIgnore: true */ dir)) throw new MigrationError(`No migrations directory at ${dir}`);
  return fs
    .readdirSync(/* turbopackIgnore: true */ dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

type AppliedRow = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };

/** The two operations the migrator needs, over either driver. */
type Session = {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs the migration's statements and its record in one transaction. */
  applyInTransaction(m: Migration, startedAt: Date): Promise<void>;
};

async function run(session: Session, migrations: Migration[]): Promise<MigrationResult> {
  await session.query(CREATE_TABLE);
  const rows = await session.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`);
  const failed = rows.find((r) => r.finished_at == null && r.rolled_back_at == null);
  if (failed) {
    throw new MigrationError(
      `Migration ${failed.migration_name} was started but never finished (a failed run of another tool). ` +
        `Resolve it (prisma migrate resolve) before starting Parley.`,
      failed.migration_name,
    );
  }
  const done = new Map(rows.filter((r) => r.finished_at != null && r.rolled_back_at == null).map((r) => [r.migration_name, r]));
  const applied: string[] = [];
  for (const m of migrations) {
    const prior = done.get(m.name);
    if (prior) {
      if (prior.checksum !== m.checksum) {
        console.warn(`[migrate] ${m.name} was modified after it was applied (checksum differs); not re-applied.`);
      }
      continue;
    }
    try {
      await session.applyInTransaction(m, new Date());
    } catch (err) {
      throw new MigrationError(`Migration ${m.name} failed and was rolled back; the database is as it was before it. ${(err as Error).message}`, m.name);
    }
    applied.push(m.name);
  }
  return { applied, total: migrations.length };
}

export async function migratePGlite(pglite: PGlite, migrations = readMigrations()): Promise<MigrationResult> {
  return run(
    {
      async query<T>(sql: string, params?: unknown[]) {
        return (await pglite.query<T>(sql, params)).rows;
      },
      async applyInTransaction(m, startedAt) {
        await pglite.transaction(async (tx) => {
          await tx.exec(m.sql);
          await tx.query(INSERT_RECORD, [crypto.randomUUID(), m.checksum, m.name, startedAt]);
        });
      },
    },
    migrations,
  );
}

export async function migratePostgres(pool: Pool, migrations = readMigrations()): Promise<MigrationResult> {
  const client: PoolClient = await pool.connect();
  // A checked-out client's connection errors are emitted on it, and unhandled they crash the process;
  // the failing query reports them anyway. A broken client is destroyed on release, not pooled.
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken ??= err;
  };
  client.on("error", onError);
  try {
    await client.query(`SELECT pg_advisory_lock(${ADVISORY_LOCK_KEY})`);
    try {
      return await run(
        {
          async query<T>(sql: string, params?: unknown[]) {
            return (await client.query(sql, params)).rows as T[];
          },
          async applyInTransaction(m, startedAt) {
            await client.query("BEGIN");
            try {
              await client.query(m.sql); // simple protocol: many statements in one call
              await client.query(INSERT_RECORD, [crypto.randomUUID(), m.checksum, m.name, startedAt]);
              await client.query("COMMIT");
            } catch (err) {
              // On a lost connection ROLLBACK fails too; the server has rolled back already. Report the cause.
              await client.query("ROLLBACK").catch(() => {});
              throw err;
            }
          },
        },
        migrations,
      );
    } finally {
      // Must not mask the migration's own error; a session that ends releases its advisory lock anyway.
      await client.query(`SELECT pg_advisory_unlock(${ADVISORY_LOCK_KEY})`).catch((err: Error) => {
        broken ??= err;
      });
    }
  } finally {
    client.removeListener("error", onError);
    client.release(broken);
  }
}

/** Names of the migrations recorded as applied, for /api/health. */
export async function appliedMigrations(query: (sql: string) => Promise<{ migration_name: string }[]>): Promise<string[]> {
  const rows = await query(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`);
  return rows.map((r) => r.migration_name);
}
