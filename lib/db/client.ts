// The one database connection of this process: PGlite in the data directory by default, PostgreSQL when
// DATABASE_URL is set. Opened lazily (next build imports routes and must not open it) and kept on a
// globalThis symbol, because Next evaluates this module once per bundle.
import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import { PrismaClient } from "./generated/client";
import { config, dataDir, databaseUrl, type DatabaseKind } from "../config";
import { openPGlite } from "./pglite-store";
import { processOnce } from "../process-once";

export type Database = {
  kind: DatabaseKind;
  prisma: PrismaClient;
  /** The raw driver, for the migrator and health checks. */
  pglite?: PGlite;
  pool?: Pool;
  close(): Promise<void>;
};

/** PostgreSQL connections kept open while the server is quiet: about what one turn reads with side by side. */
const WARM_CONNECTIONS = 4;

const processDatabase = processOnce("parley.database", () => openDatabase());

/**
 * Opens a database: PostgreSQL at `url`, else PGlite in `dir`, else (neither given) whatever the
 * environment says (DATABASE_URL, or PGlite in the data directory). An explicit `dir` means PGlite even
 * when DATABASE_URL is set.
 */
export async function openDatabase(opts: { url?: string; dir?: string } = {}): Promise<Database> {
  const url = opts.url ?? (opts.dir ? undefined : databaseUrl());
  if (url) {
    const pg = await import("pg");
    const { PrismaPg } = await import("@prisma/adapter-pg");
    const max = config().PARLEY_DB_POOL_SIZE;
    // A few connections stay open through quiet spells (the pool closes the others after 10 s idle):
    // a turn reads side by side, and a new connection costs it several milliseconds before its model call.
    const pool = new pg.default.Pool({ connectionString: url, max, min: Math.min(WARM_CONNECTIONS, max) });
    pool.on("error", (err) => console.error("[db] idle client error:", err.message));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      kind: "postgresql",
      prisma,
      pool,
      async close() {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  const pglite = await openPGlite(opts.dir ?? dataDir());
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const prisma = yieldingToIo(new PrismaClient({ adapter: new PrismaPGlite(pglite) }));
  return {
    kind: "pglite",
    prisma,
    pglite,
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

/**
 * PGlite runs in this thread and answers within the event loop's microtasks, so a run of queries (a
 * transaction, the block writer's writes) would hold every socket back until its last statement: a
 * turn's first write kept its model request from going out for ~15 ms (npm run bench). Each PGlite
 * operation, in a transaction too, therefore starts in a new turn of the loop, after waiting I/O.
 */
function yieldingToIo(prisma: PrismaClient): PrismaClient {
  return prisma.$extends({
    query: {
      async $allOperations({ args, query }) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return query(args);
      },
    },
  }) as unknown as PrismaClient;
}

/** The process-wide database, opened on first use. */
export function database(): Promise<Database> {
  return processDatabase.get();
}

export async function db(): Promise<PrismaClient> {
  return (await database()).prisma;
}

/** Closes the process-wide database (shutdown, and tests that switch databases). */
export async function closeDatabase(): Promise<void> {
  const open = processDatabase.current();
  processDatabase.forget();
  if (open) await (await open.catch(() => undefined))?.close();
}
