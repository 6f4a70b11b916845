// The health report: version, database kind, migrations applied; unhealthy when the database does
// not answer (readiness: GET /api/health). And liveness (GET /api/health/live): the process answers,
// whatever the database does, so an orchestrator restarts a hung process but not every instance
// while the database is down.
import pkg from "../package.json";
import { databaseKind } from "./config";
import { database } from "./db/client";
import { appliedMigrations } from "./db/migrator";
import { withTimeout } from "./with-timeout";

export type Health = { ok: boolean; version: string; database: string; migrations: string[]; error?: string };

export async function health(): Promise<Health> {
  let kind: string = databaseKind();
  try {
    const db = await database();
    kind = db.kind;
    const query = async (sql: string) => (db.pglite ? (await db.pglite.query<{ migration_name: string }>(sql)).rows : (await db.pool!.query(sql)).rows);
    const migrations = await withTimeout(appliedMigrations(query), 5000);
    return { ok: true, version: pkg.version, database: kind, migrations };
  } catch (err) {
    return { ok: false, version: pkg.version, database: kind, migrations: [], error: `Database unreachable: ${(err as Error).message}` };
  }
}

export type Liveness = { ok: true; version: string };

/** The process serves requests. Touches neither the database nor Redis. */
export function liveness(): Liveness {
  return { ok: true, version: pkg.version };
}
