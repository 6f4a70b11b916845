// What scripts/backup.mjs and scripts/restore.mjs share: the settings they read (as lib/config.ts reads
// them), the backup's layout, the data directory's lock and the secret key's form.
//
// A backup is a directory (mode 0700; keep it as private as the key inside it):
//   manifest.json    what it is: Parley's version, the database kind, the migrations applied, the
//                    key's origin, and the sha256 of every other file (restore checks them)
//   secret.key       the encryption key (mode 0600): PARLEY_SECRET_KEY's value when set, else the data
//                    directory's secret.key. Without it the stored provider keys and tokens are lost.
//   pglite.tar.gz    the embedded database (PGlite's dumpDataDir), or
//   database.pgdump  PostgreSQL's (pg_dump --format=custom; pg_restore reads it)
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const FORMAT = 1;
export const MANIFEST = "manifest.json";
export const KEY_FILE = "secret.key";
export const PGLITE_FILE = "pglite.tar.gz";
export const PG_FILE = "database.pgdump";

/** An empty or blank variable counts as unset (lib/config.ts). */
export function setting(name, env = process.env) {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

export const databaseUrl = (env = process.env) => setting("DATABASE_URL", env);
export const dataDir = (env = process.env) => path.resolve(setting("PARLEY_DATA_DIR", env) ?? "./data");

export class BackupError extends Error {}

export function sha256(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** The key's 32 bytes from its text (64 hex characters or base64/base64url), or undefined. */
export function keyBytes(text) {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) return Buffer.from(t.replace(/=$/, "").replace(/\+/g, "-").replace(/\//g, "_"), "base64url");
  return undefined;
}

/** Whether two keys are the same key, whatever their spelling. */
export function sameKey(a, b) {
  const x = keyBytes(a);
  const y = keyBytes(b);
  return x && y ? x.equals(y) : a.trim() === b.trim();
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/**
 * Takes the data directory's lock (`parley.lock`, as lib/db/pglite-store.ts does), so no server opens
 * the embedded database while it is copied or replaced; throws when a live process holds it. Returns
 * the release.
 */
export function lockDataDir(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, "parley.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(lock, "utf8") === String(process.pid)) fs.unlinkSync(lock);
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      const pid = Number(fs.readFileSync(lock, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && processAlive(pid)) {
        throw new BackupError(
          `Parley is running on ${dir} (pid ${pid}). The embedded database can only be copied or replaced while ` +
            `no server uses it: stop Parley first (docker stop, systemctl stop, Ctrl+C), then run this again.`,
        );
      }
      fs.unlinkSync(lock); // left by a process that is gone
    }
  }
  throw new BackupError(`Could not take the lock on ${dir}`);
}

/** Runs `fn` with the arguments parsed and turns a BackupError into its message and exit code 1. */
export async function main(name, fn) {
  try {
    await fn(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(`\n[${name}] ${err.message}\n`);
    process.exit(1);
  }
}

/**
 * How to run pg_dump / pg_restore on `url`: the URL without its password (arguments are visible to
 * every user of the machine) and the password in PGPASSWORD.
 */
export function libpqConnection(url) {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { dbname: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** `--name value` from the arguments. */
export function option(args, name) {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/** UTC time as 20261127T214500Z, for names. */
export const stamp = (d = new Date()) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
