// `npm run restore -- DIR [--force]`: puts back a backup made by `npm run backup` (scripts/backup.mjs):
// the database, and the secret key it was written with. It restores into what the server would open:
// DATABASE_URL for a PostgreSQL backup, PARLEY_DATA_DIR for an embedded one. Run it with Parley
// stopped (an embedded database's lock is checked; PostgreSQL's instances must be stopped by you),
// then start Parley: it applies the migrations the backup is older than.
//
// Before writing anything it checks the files against the manifest, that the key will be the one the
// database was written with (PARLEY_SECRET_KEY, when set, must equal the backup's), and that it
// replaces nothing: an existing embedded database, a PostgreSQL database with tables, or another key
// file stop it with the reason. With --force it replaces them: the embedded database and the key file
// are moved aside (`pglite.replaced-<time>`, `secret.key.replaced-<time>`), never deleted;
// PostgreSQL's tables are dropped (pg_restore --clean).
//
// PostgreSQL: pg_restore (on PATH, or named by PG_RESTORE) loads the dump in one transaction, so a
// failure leaves the database as it was. Exit code 0, or 1 with the reason.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  BackupError,
  FORMAT,
  KEY_FILE,
  MANIFEST,
  PGLITE_FILE,
  PG_FILE,
  dataDir,
  databaseUrl,
  libpqConnection,
  lockDataDir,
  main,
  sameKey,
  setting,
  sha256,
  stamp,
} from "./backup-files.mjs";

function readBackup(from) {
  const file = path.join(from, MANIFEST);
  if (!fs.existsSync(file)) throw new BackupError(`${from} is not a Parley backup (no ${MANIFEST}).`);
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
  if (manifest.app !== "parley" || manifest.format !== FORMAT) throw new BackupError(`${file}: not a Parley backup of format ${FORMAT}.`);
  for (const [name, sum] of Object.entries(manifest.sha256 ?? {})) {
    const f = path.join(from, name);
    if (!fs.existsSync(f)) throw new BackupError(`${f} is missing from the backup.`);
    if (sha256(f) !== sum) throw new BackupError(`${f} is damaged (its sha256 differs from the manifest's).`);
  }
  if (!manifest.sha256?.[KEY_FILE]) throw new BackupError(`The backup holds no ${KEY_FILE}.`);
  return { manifest, key: fs.readFileSync(path.join(from, KEY_FILE), "utf8") };
}

/** What to do with the key: nothing (PARLEY_SECRET_KEY is the backup's), or write the data directory's key file. */
function planKey(backupKey, dir, force) {
  const fromEnv = setting("PARLEY_SECRET_KEY");
  if (fromEnv) {
    if (sameKey(fromEnv, backupKey)) return { write: false };
    throw new BackupError(
      `PARLEY_SECRET_KEY is not the key this backup's secrets were written with: the server would refuse to start. ` +
        `Set PARLEY_SECRET_KEY to the key in the backup's ${KEY_FILE}, or unset it to restore the key file.`,
    );
  }
  const file = path.join(dir, KEY_FILE);
  if (fs.existsSync(file) && !sameKey(fs.readFileSync(file, "utf8"), backupKey) && !force) {
    throw new BackupError(`${file} holds another key. Run with --force to replace it (the old one is kept as ${KEY_FILE}.replaced-<time>).`);
  }
  return { write: true, file };
}

function writeKey(plan, backupKey) {
  if (!plan.write) return;
  if (fs.existsSync(plan.file)) {
    if (sameKey(fs.readFileSync(plan.file, "utf8"), backupKey)) return;
    fs.renameSync(plan.file, `${plan.file}.replaced-${stamp()}`);
  }
  fs.mkdirSync(path.dirname(plan.file), { recursive: true });
  fs.writeFileSync(plan.file, backupKey, { mode: 0o600 });
}

async function restorePGlite(from, dir, force, keyPlan, backupKey) {
  const release = lockDataDir(dir);
  try {
    const dbDir = path.join(dir, "pglite");
    let aside;
    if (fs.existsSync(dbDir) && fs.readdirSync(dbDir).length) {
      if (!force) throw new BackupError(`${dbDir} already holds a database. Run with --force to replace it (it is kept as pglite.replaced-<time>).`);
      aside = path.join(dir, `pglite.replaced-${stamp()}`);
      fs.renameSync(dbDir, aside);
    }
    fs.mkdirSync(dbDir, { recursive: true });
    try {
      const { PGlite } = await import("@electric-sql/pglite");
      const tarball = new Blob([fs.readFileSync(path.join(from, PGLITE_FILE))]);
      const db = new PGlite(dbDir, { loadDataDir: tarball });
      try {
        await db.waitReady;
        await db.query(`SELECT count(*) FROM "_prisma_migrations"`);
      } finally {
        await db.close();
      }
    } catch (err) {
      // Leave the data directory as it was.
      fs.rmSync(dbDir, { recursive: true, force: true });
      if (aside) fs.renameSync(aside, dbDir);
      throw new BackupError(`The embedded database could not be restored: ${err.message}`);
    }
    writeKey(keyPlan, backupKey);
  } finally {
    release();
  }
}

async function restorePostgres(from, url, force, keyPlan, backupKey) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  let tables;
  try {
    await client.connect();
    tables = Number((await client.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'`)).rows[0].n);
  } catch (err) {
    throw new BackupError(`Cannot reach the database at DATABASE_URL: ${err.message}`);
  } finally {
    await client.end().catch(() => {});
  }
  if (tables && !force) {
    throw new BackupError(`The database at DATABASE_URL has ${tables} tables. Restore into an empty database, or run with --force to drop and replace them.`);
  }
  const pgRestore = setting("PG_RESTORE") ?? "pg_restore";
  const { dbname, env } = libpqConnection(url);
  const clean = tables ? ["--clean", "--if-exists"] : [];
  const run = spawnSync(
    pgRestore,
    ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", ...clean, `--dbname=${dbname}`, path.join(from, PG_FILE)],
    {
      env,
      stdio: ["ignore", "inherit", "pipe"],
      encoding: "utf8",
    },
  );
  if (run.error?.code === "ENOENT") {
    throw new BackupError(`${pgRestore} was not found: install PostgreSQL's client tools, or name it with PG_RESTORE.`);
  }
  if (run.status !== 0) throw new BackupError(`${pgRestore} failed (exit ${run.status}); the database is as it was. ${run.stderr.trim()}`);
  writeKey(keyPlan, backupKey);
}

await main("restore", async (args) => {
  const from = args.find((a) => !a.startsWith("--"));
  if (!from) throw new BackupError("Usage: npm run restore -- <backup directory> [--force]");
  const force = args.includes("--force");
  const { manifest, key } = readBackup(path.resolve(from));
  const url = databaseUrl();
  const dir = dataDir();
  if (manifest.database === "postgresql" && !url) {
    throw new BackupError("This is a backup of a PostgreSQL database: set DATABASE_URL to the (empty) database to restore it into.");
  }
  if (manifest.database === "pglite" && url) {
    throw new BackupError("This is a backup of the embedded database: unset DATABASE_URL to restore it into PARLEY_DATA_DIR.");
  }
  const keyPlan = planKey(key, dir, force);
  if (url) await restorePostgres(path.resolve(from), url, force, keyPlan, key);
  else await restorePGlite(path.resolve(from), dir, force, keyPlan, key);
  const where = url ? "the database at DATABASE_URL" : dir;
  const keyNote = keyPlan.write ? `the key in ${keyPlan.file}` : "the key is PARLEY_SECRET_KEY's";
  console.log(`[restore] Parley ${manifest.version}'s backup of ${manifest.createdAt} restored into ${where} (${keyNote}). Start Parley.`);
});
