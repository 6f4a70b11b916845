// Opens the embedded PGlite database in the data directory, guarded by a lock file: PGlite does not
// lock its directory itself, and two processes writing one directory corrupt it. Every PGlite that
// opens Parley's database loads the same extensions (pgliteExtensions), so a migration may use them.
import fs from "node:fs";
import path from "node:path";
import type { Extensions, PGlite } from "@electric-sql/pglite";

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`The data directory ${dir} is in use by another Parley process (pid ${pid}). ` + `Stop it, or point PARLEY_DATA_DIR at another directory.`);
    this.name = "DataDirLockedError";
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Creates `file` holding `content`, failing with EEXIST if it exists. The file appears complete (a hard
 * link to a written temp file), so another process never reads it empty and mistakes it for stale.
 */
function createExclusive(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content);
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw err;
    // A file system without hard links: exclusive create, then write.
    fs.writeFileSync(file, content, { flag: "wx" });
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Takes `<dir>/parley.lock` for this process; a lock left by a dead process is taken over. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, "parley.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createExclusive(lockPath, String(process.pid));
      const release = () => {
        process.removeListener("exit", release);
        try {
          if (fs.readFileSync(lockPath, "utf8") === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (pid === process.pid) return () => {};
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) throw new DataDirLockedError(dir, pid);
      fs.unlinkSync(lockPath); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock on ${dir}`);
}

/**
 * The extensions PGlite loads for Parley's database: pgvector (`vector`), the embedded counterpart of
 * the pgvector PostgreSQL needs for knowledge bases. Loading one makes it available to `CREATE EXTENSION`;
 * it is created in the database only by a migration (or a test).
 */
export async function pgliteExtensions(): Promise<Extensions> {
  const { vector } = await import("@electric-sql/pglite-pgvector");
  return { vector };
}

/** The database in `dir`, locked for this process until it is closed (or the process ends). */
export async function openPGlite(dir: string): Promise<PGlite> {
  const unlock = lockDataDir(dir);
  const dbDir = path.join(dir, "pglite");
  fs.mkdirSync(dbDir, { recursive: true });
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(dbDir, { extensions: await pgliteExtensions() });
  await db.waitReady;
  const close = db.close.bind(db);
  db.close = async () => {
    try {
      await close();
    } finally {
      unlock();
    }
  };
  return db;
}
