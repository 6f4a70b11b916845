// `npm run backup [-- --out DIR]`: a backup of Parley's database and its secret key, in a new directory
// (default backups/parley-<UTC time>; the layout is in backup-files.mjs). It reads the settings the
// server reads: DATABASE_URL, PARLEY_DATA_DIR, PARLEY_SECRET_KEY. `npm run restore` puts it back.
//
// - PostgreSQL (DATABASE_URL set): `pg_dump --format=custom`, one consistent snapshot, taken while
//   Parley runs. pg_dump must be on PATH (or named by PG_DUMP) and at least as new as the server, for
//   example the one inside the PostgreSQL container. The key comes from PARLEY_SECRET_KEY, or from
//   secret.key in PARLEY_DATA_DIR.
// - Embedded (the default): the database in PARLEY_DATA_DIR/pglite, copied by PGlite itself
//   (dumpDataDir). PGlite belongs to one process, so this takes the data directory's lock and refuses
//   while a server holds it: stop Parley, back up, start it again (seconds). The key is secret.key
//   from the data directory (or PARLEY_SECRET_KEY when set).
//
// Exit code 0 with the directory's name printed, or 1 with the reason (nothing half-written is left).
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
  option,
  setting,
  sha256,
  stamp,
} from "./backup-files.mjs";

const APPLIED = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`;

/** The key to keep with the database: PARLEY_SECRET_KEY's value, else the data directory's key file. */
function secretKey(dir) {
  const fromEnv = setting("PARLEY_SECRET_KEY");
  if (fromEnv) return { text: `${fromEnv}\n`, source: "PARLEY_SECRET_KEY" };
  const file = path.join(dir, KEY_FILE);
  if (fs.existsSync(file)) return { text: fs.readFileSync(file, "utf8"), source: "file" };
  throw new BackupError(
    `No secret key: PARLEY_SECRET_KEY is not set and ${file} does not exist. A backup without the key cannot ` +
      `decrypt the stored provider keys and tokens: set PARLEY_SECRET_KEY, or PARLEY_DATA_DIR to the server's data directory.`,
  );
}

async function backUpPGlite(dir, out) {
  const dbDir = path.join(dir, "pglite");
  if (!fs.existsSync(path.join(dbDir, "PG_VERSION"))) {
    throw new BackupError(`No embedded database in ${dbDir} (set PARLEY_DATA_DIR, or DATABASE_URL for PostgreSQL).`);
  }
  const release = lockDataDir(dir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(dbDir);
    try {
      await db.waitReady;
      const migrations = (await db.query(APPLIED)).rows.map((r) => r.migration_name);
      const dump = await db.dumpDataDir("gzip");
      fs.writeFileSync(path.join(out, PGLITE_FILE), Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
      return { file: PGLITE_FILE, migrations };
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

async function backUpPostgres(url, out) {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: url });
  let migrations;
  try {
    await client.connect();
    migrations = (await client.query(APPLIED)).rows.map((r) => r.migration_name);
  } catch (err) {
    throw new BackupError(`Cannot read the database at DATABASE_URL: ${err.message}`);
  } finally {
    await client.end().catch(() => {});
  }
  const pgDump = setting("PG_DUMP") ?? "pg_dump";
  const file = path.join(out, PG_FILE);
  const { dbname, env } = libpqConnection(url);
  const run = spawnSync(pgDump, ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${dbname}`], {
    env,
    stdio: ["ignore", "inherit", "pipe"],
    encoding: "utf8",
  });
  if (run.error?.code === "ENOENT") {
    throw new BackupError(`${pgDump} was not found: install PostgreSQL's client tools (as new as the server), or name it with PG_DUMP.`);
  }
  if (run.status !== 0) throw new BackupError(`${pgDump} failed (exit ${run.status}): ${run.stderr.trim()}`);
  fs.chmodSync(file, 0o600);
  return { file: PG_FILE, migrations };
}

await main("backup", async (args) => {
  const url = databaseUrl();
  const dir = dataDir();
  const out = path.resolve(option(args, "--out") ?? path.join("backups", `parley-${stamp()}`));
  if (fs.existsSync(out) && fs.readdirSync(out).length) throw new BackupError(`${out} exists and is not empty.`);
  const key = secretKey(dir);
  fs.mkdirSync(out, { recursive: true, mode: 0o700 });
  fs.chmodSync(out, 0o700);
  try {
    const db = url ? await backUpPostgres(url, out) : await backUpPGlite(dir, out);
    fs.writeFileSync(path.join(out, KEY_FILE), key.text, { mode: 0o600 });
    const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const manifest = {
      format: FORMAT,
      app: "parley",
      version: pkg.version,
      createdAt: new Date().toISOString(),
      database: url ? "postgresql" : "pglite",
      migrations: db.migrations,
      key: key.source,
      sha256: Object.fromEntries([db.file, KEY_FILE].map((f) => [f, sha256(path.join(out, f))])),
    };
    fs.writeFileSync(path.join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  } catch (err) {
    fs.rmSync(out, { recursive: true, force: true });
    throw err;
  }
  console.log(`[backup] ${url ? "PostgreSQL" : "embedded"} database and secret key written to ${out}`);
});
