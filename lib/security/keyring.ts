// The master key of this process, checked against the database at start-up: a check value encrypted
// under the key is stored once; a later start with another key fails with a clear message instead of
// producing garbage. encryptSecret/decryptSecret are what the rest of the app uses.
import type { PrismaClient } from "../db/generated/client";
import { dataDir } from "../config";
import { decryptWith, DecryptError, deriveKey, encryptWith, loadMasterKey, SecretKeyError, type KeySource } from "./secrets";

const CHECK_SETTING = "secret_key_check";
const CHECK_PLAINTEXT = "parley-secret-key-check";

const KEY = Symbol.for("parley.masterKey");
type Holder = { [KEY]?: Buffer };
const holder = globalThis as Holder;

export async function initKeyring(prisma: PrismaClient, dir = dataDir()): Promise<KeySource> {
  const check = await prisma.setting.findUnique({ where: { key: CHECK_SETTING } });
  const { key, source } = loadMasterKey(dir, !check);
  if (check) {
    try {
      if (decryptWith(key, check.value) !== CHECK_PLAINTEXT) throw new DecryptError();
    } catch {
      throw new SecretKeyError(
        `The secret key (${source === "env" ? "PARLEY_SECRET_KEY" : "the key file in the data directory"}) is not ` +
          `the key this database's secrets were encrypted with. Restore the original key.`,
      );
    }
  } else {
    await prisma.setting.create({ data: { key: CHECK_SETTING, value: encryptWith(key, CHECK_PLAINTEXT) } });
  }
  holder[KEY] = key;
  return source;
}

function masterKey(): Buffer {
  const key = holder[KEY];
  if (!key) throw new SecretKeyError("The keyring is not initialised (start-up has not run).");
  return key;
}

export function encryptSecret(plaintext: string): string {
  return encryptWith(masterKey(), plaintext);
}

export function decryptSecret(ciphertext: string): string {
  return decryptWith(masterKey(), ciphertext);
}

/** Secret for signing sessions: BETTER_AUTH_SECRET if set, else derived from the master key. */
export function authSecret(): string {
  return process.env.BETTER_AUTH_SECRET?.trim() || deriveKey(masterKey(), "auth");
}
