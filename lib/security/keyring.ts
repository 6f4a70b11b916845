// The master key of this process, checked against the database at start-up: a check value encrypted
// under the key is stored once; a later start with another key fails with a clear message instead of
// producing garbage. encryptSecret/decryptSecret are what the rest of the app uses.
import fs from "node:fs";
import path from "node:path";
import type { PrismaClient } from "../db/generated/client";
import { config, dataDir } from "../config";
import { decryptWith, DecryptError, deriveKey, encryptWith, KEY_FILE, loadMasterKey, openWith, SecretKeyError, type KeySource } from "./secrets";

const CHECK_SETTING = "secret_key_check";
const CHECK_PLAINTEXT = "parley-secret-key-check";

const KEY = Symbol.for("parley.masterKey");
type Holder = { [KEY]?: Buffer };
const holder = globalThis as Holder;

export async function initKeyring(prisma: PrismaClient, dir = dataDir()): Promise<KeySource> {
  let check = await prisma.setting.findUnique({ where: { key: CHECK_SETTING } });
  const { key, source } = loadMasterKey(dir, !check);
  if (!check) {
    // Instances starting together on a fresh database race here: the first check value stored wins, and
    // the others verify their key against it.
    const { count } = await prisma.setting.createMany({
      data: [{ key: CHECK_SETTING, value: encryptWith(key, CHECK_PLAINTEXT) }],
      skipDuplicates: true,
    });
    if (count === 0) check = await prisma.setting.findUniqueOrThrow({ where: { key: CHECK_SETTING } });
  }
  if (check) {
    try {
      if (decryptWith(key, check.value) !== CHECK_PLAINTEXT) throw new DecryptError();
    } catch {
      if (source === "generated") {
        // Another instance set this database up with its own key just now: ours is of no use.
        fs.rmSync(path.join(dir, KEY_FILE), { force: true });
        throw new SecretKeyError(
          "Another Parley instance set up this database with a different secret key at the same time. " + "Give every instance the same PARLEY_SECRET_KEY.",
        );
      }
      throw new SecretKeyError(
        `The secret key (${source === "env" ? "PARLEY_SECRET_KEY" : "the key file in the data directory"}) is not ` +
          `the key this database's secrets were encrypted with. Restore the original key.`,
      );
    }
  }
  holder[KEY] = key;
  return source;
}

function masterKey(): Buffer {
  const key = holder[KEY];
  if (!key) throw new SecretKeyError("The keyring is not initialised (start-up has not run).");
  return key;
}

/** Encrypts under the master key; with `binding` (an origin), the ciphertext is bound to it (v2). */
export function encryptSecret(plaintext: string, binding?: string): string {
  return encryptWith(masterKey(), plaintext, binding);
}

export function decryptSecret(ciphertext: string): string {
  return decryptWith(masterKey(), ciphertext);
}

/** Plaintext and binding (null for an unbound v1 ciphertext). */
export function openSecret(ciphertext: string): { plaintext: string; binding: string | null } {
  return openWith(masterKey(), ciphertext);
}

/** Secret for signing sessions: BETTER_AUTH_SECRET if set, else derived from the master key. */
export function authSecret(): string {
  return config().BETTER_AUTH_SECRET || deriveKey(masterKey(), "auth");
}
