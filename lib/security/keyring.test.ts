// The keyring at start-up: the first start stores a check value under the master key; later starts
// with the same key pass, and a start with another key (or with the key lost) stops with a clear error
// instead of encrypting new secrets under a key that cannot read the old ones.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { migratePGlite, migratePostgres, readMigrations } from "../db/migrator";
import { DRIVERS, makeTempDir, removeDir, type TestDatabase } from "../../test/support/test-databases";
import { authSecret, decryptSecret, encryptSecret, initKeyring } from "./keyring";
import { decryptWith, KEY_FILE, parseKey, SecretKeyError } from "./secrets";

const migrations = readMigrations(path.resolve(__dirname, "../../prisma/migrations"));
const CHECK = "secret_key_check";

for (const driver of DRIVERS) {
  describe.skipIf(driver.skip)(`initKeyring on ${driver.name}`, () => {
    let t: TestDatabase | undefined;
    let db: Database;
    let keyDir: string;
    let savedEnv: { [k: string]: string | undefined };

    beforeAll(() => {
      savedEnv = { PARLEY_SECRET_KEY: process.env.PARLEY_SECRET_KEY, BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET };
    });
    afterAll(() => {
      for (const [k, v] of Object.entries(savedEnv)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });
    beforeEach(async () => {
      delete process.env.PARLEY_SECRET_KEY;
      delete process.env.BETTER_AUTH_SECRET;
      t = await driver.fresh({ migrated: true });
      db = await t.open();
      // Already migrated when the run has a migrated copy (test/support/global-setup.ts): then a no-op.
      if (db.pglite) await migratePGlite(db.pglite, migrations);
      else await migratePostgres(db.pool!, migrations);
      keyDir = makeTempDir("parley-keys-");
    });
    afterEach(async () => {
      await t?.cleanup();
      removeDir(keyDir);
    });

    async function expectRefused(message: RegExp): Promise<SecretKeyError> {
      const err = await initKeyring(db.prisma, keyDir).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SecretKeyError);
      expect((err as Error).message).toMatch(message);
      return err as SecretKeyError;
    }

    it("on a fresh database generates a key file and stores a check value encrypted under it", async () => {
      expect(await initKeyring(db.prisma, keyDir)).toBe("generated");
      const key = parseKey(fs.readFileSync(path.join(keyDir, KEY_FILE), "utf8"));
      const check = await db.prisma.setting.findUniqueOrThrow({ where: { key: CHECK } });
      expect(check.value).toMatch(/^v1:/);
      expect(() => decryptWith(key, check.value)).not.toThrow();
      // The app's secrets now round-trip under that key.
      const c = encryptSecret("sk-provider-key");
      expect(decryptWith(key, c)).toBe("sk-provider-key");
      expect(decryptSecret(c)).toBe("sk-provider-key");
      // The session secret is derived from it, stable, and not the key itself.
      expect(authSecret()).toMatch(/^[\w-]{43}$/);
      expect(authSecret()).not.toBe(key.toString("base64url"));
    });

    it("a second start with the same key passes and keeps the check value", async () => {
      await initKeyring(db.prisma, keyDir);
      const before = await db.prisma.setting.findUniqueOrThrow({ where: { key: CHECK } });
      const secret = encryptSecret("sk-kept");
      const derived = authSecret();
      expect(await initKeyring(db.prisma, keyDir)).toBe("file");
      expect(await db.prisma.setting.findUniqueOrThrow({ where: { key: CHECK } })).toEqual(before);
      expect(decryptSecret(secret)).toBe("sk-kept");
      expect(authSecret()).toBe(derived);
    });

    it("the same key given as PARLEY_SECRET_KEY later passes too", async () => {
      await initKeyring(db.prisma, keyDir);
      process.env.PARLEY_SECRET_KEY = fs.readFileSync(path.join(keyDir, KEY_FILE), "utf8").trim();
      fs.rmSync(path.join(keyDir, KEY_FILE));
      expect(await initKeyring(db.prisma, keyDir)).toBe("env");
    });

    it("a different PARLEY_SECRET_KEY is refused with a message that says so", async () => {
      const right = crypto.randomBytes(32).toString("base64");
      process.env.PARLEY_SECRET_KEY = right;
      expect(await initKeyring(db.prisma, keyDir)).toBe("env");
      const check = await db.prisma.setting.findMany({ where: { key: CHECK } });
      process.env.PARLEY_SECRET_KEY = crypto.randomBytes(32).toString("hex");
      const err = await expectRefused(/PARLEY_SECRET_KEY.*is not the key this database's secrets were encrypted with/);
      expect(err.message).toMatch(/Restore the original key/);
      // The check value is untouched: the right key still works afterwards.
      expect(await db.prisma.setting.findMany({ where: { key: CHECK } })).toEqual(check);
      process.env.PARLEY_SECRET_KEY = right;
      expect(await initKeyring(db.prisma, keyDir)).toBe("env");
    });

    it("a PARLEY_SECRET_KEY that differs from the key file the database was set up with is refused", async () => {
      await initKeyring(db.prisma, keyDir);
      process.env.PARLEY_SECRET_KEY = crypto.randomBytes(32).toString("base64");
      await expectRefused(/PARLEY_SECRET_KEY/);
    });

    it("a replaced key file is refused, naming the key file", async () => {
      await initKeyring(db.prisma, keyDir);
      fs.writeFileSync(path.join(keyDir, KEY_FILE), crypto.randomBytes(32).toString("base64url") + "\n");
      await expectRefused(/key file/);
    });

    it("with the key file deleted and no PARLEY_SECRET_KEY it refuses, and does not generate a new key", async () => {
      await initKeyring(db.prisma, keyDir);
      fs.rmSync(path.join(keyDir, KEY_FILE));
      await expectRefused(/PARLEY_SECRET_KEY|secret\.key/);
      expect(fs.existsSync(path.join(keyDir, KEY_FILE))).toBe(false);
      // Still refused on the next start (nothing was stored or generated in between).
      await expectRefused(/PARLEY_SECRET_KEY|secret\.key/);
      expect(fs.existsSync(path.join(keyDir, KEY_FILE))).toBe(false);
    });

    it("a database set up with PARLEY_SECRET_KEY, started without it, refuses instead of generating a key", async () => {
      process.env.PARLEY_SECRET_KEY = crypto.randomBytes(32).toString("base64");
      await initKeyring(db.prisma, keyDir);
      delete process.env.PARLEY_SECRET_KEY;
      await expectRefused(/PARLEY_SECRET_KEY/);
      expect(fs.existsSync(path.join(keyDir, KEY_FILE))).toBe(false);
    });

    it("two instances starting at once on a fresh database with the same key both start", async () => {
      process.env.PARLEY_SECRET_KEY = crypto.randomBytes(32).toString("base64");
      // On PostgreSQL a second connection pool, like a second app instance; PGlite has one connection.
      const second = t!.url ? await openDatabase({ url: t!.url }) : db;
      try {
        await expect(Promise.all([initKeyring(db.prisma, keyDir), initKeyring(second.prisma, keyDir)])).resolves.toEqual(["env", "env"]);
        expect(await db.prisma.setting.count({ where: { key: CHECK } })).toBe(1);
      } finally {
        if (second !== db) await second.close();
      }
    });

    it("two instances starting at once with different keys: one starts, the other is refused", async () => {
      const keyA = crypto.randomBytes(32);
      const keyB = crypto.randomBytes(32);
      const dirB = makeTempDir("parley-keys-");
      try {
        fs.writeFileSync(path.join(keyDir, KEY_FILE), keyA.toString("base64url"));
        fs.writeFileSync(path.join(dirB, KEY_FILE), keyB.toString("base64url"));
        const results = await Promise.allSettled([initKeyring(db.prisma, keyDir), initKeyring(db.prisma, dirB)]);
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const rejected = results.filter((r) => r.status === "rejected");
        expect(rejected).toHaveLength(1);
        expect((rejected[0] as PromiseRejectedResult).reason).toBeInstanceOf(SecretKeyError);
      } finally {
        removeDir(dirB);
      }
    });

    it("an instance that generated a key and lost the race to set up the database removes its useless key", async () => {
      const keyA = crypto.randomBytes(32);
      const dirB = makeTempDir("parley-keys-");
      try {
        fs.writeFileSync(path.join(keyDir, KEY_FILE), keyA.toString("base64url"));
        const [a, b] = await Promise.allSettled([initKeyring(db.prisma, keyDir), initKeyring(db.prisma, dirB)]);
        expect([a.status, b.status].sort()).toEqual(["fulfilled", "rejected"]);
        // Never removes a key file it did not generate.
        expect(parseKey(fs.readFileSync(path.join(keyDir, KEY_FILE), "utf8"))).toEqual(keyA);
        if (b.status === "rejected") {
          expect(b.reason).toBeInstanceOf(SecretKeyError);
          expect((b.reason as Error).message).toMatch(/same PARLEY_SECRET_KEY/);
          expect(fs.existsSync(path.join(dirB, KEY_FILE))).toBe(false);
        } else {
          expect((a as PromiseRejectedResult).reason).toBeInstanceOf(SecretKeyError);
        }
      } finally {
        removeDir(dirB);
      }
    });
  });
}
