// Secret encryption at rest: AES-256-GCM under one master key, from PARLEY_SECRET_KEY or, when unset,
// a key generated on first start into the data directory (mode 0600). Ciphertexts are
// "v1:<iv>:<tag>:<data>", or "v2:<binding>:<iv>:<tag>:<data>" for a secret bound to where it may be
// sent (an origin): the binding is authenticated data, so it cannot be swapped. All parts base64url.
// A wrong key, or an altered binding, fails authentication: an error, never garbage.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "../config";

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
}

export class DecryptError extends Error {
  constructor() {
    super("This secret cannot be decrypted with the current PARLEY_SECRET_KEY (wrong key, or the value was altered).");
    this.name = "DecryptError";
  }
}

export const KEY_FILE = "secret.key";

/**
 * Parses a 32-byte key given as 64 hex characters or base64/base64url (padded or not). Anything else is
 * refused, including strings with characters outside those alphabets (Node's decoder would skip them).
 */
export function parseKey(text: string): Buffer {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(t)) key = Buffer.from(t, "hex");
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) key = Buffer.from(t.replace(/=$/, ""), "base64url");
  if (key?.length !== 32) {
    throw new SecretKeyError(
      "PARLEY_SECRET_KEY must be 32 random bytes, as 64 hex characters or base64 " + "(for example the output of `openssl rand -base64 32`).",
    );
  }
  return key;
}

export type KeySource = "env" | "file" | "generated";

/**
 * Loads the master key. `allowGenerate` is false when the database already holds secrets: a fresh key
 * could never decrypt them, so the caller gets a clear error instead of a new key.
 */
export function loadMasterKey(dir: string, allowGenerate: boolean): { key: Buffer; source: KeySource } {
  const fromEnv = config().PARLEY_SECRET_KEY;
  if (fromEnv) return { key: parseKey(fromEnv), source: "env" };
  const file = path.join(dir, KEY_FILE);
  if (fs.existsSync(file)) return { key: readKeyFile(file), source: "file" };
  if (!allowGenerate) {
    throw new SecretKeyError(
      `This database holds secrets encrypted with a key that is not here: set PARLEY_SECRET_KEY ` + `or restore ${KEY_FILE} into the data directory.`,
    );
  }
  fs.mkdirSync(dir, { recursive: true });
  const key = crypto.randomBytes(32);
  try {
    fs.writeFileSync(file, key.toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
  } catch (err) {
    // Another process sharing the data directory generated it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return { key: readKeyFile(file), source: "file" };
    throw err;
  }
  return { key, source: "generated" };
}

function readKeyFile(file: string): Buffer {
  try {
    return parseKey(fs.readFileSync(file, "utf8"));
  } catch (err) {
    if (!(err instanceof SecretKeyError)) throw err;
    throw new SecretKeyError(
      `The key file ${file} is damaged: it must hold 32 random bytes as 64 hex characters or base64. ` +
        `Restore it from a backup, or set PARLEY_SECRET_KEY to the original key.`,
    );
  }
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

const b64 = (x: Buffer) => x.toString("base64url");
const boundAad = (binding: string) => Buffer.from(`parley-bound:${binding}`, "utf8");

/** Encrypts; with `binding`, the ciphertext carries it (v2) and decrypts only together with it. */
export function encryptWith(key: Buffer, plaintext: string, binding?: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  if (binding !== undefined) cipher.setAAD(boundAad(binding));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const head = binding !== undefined ? `v2:${b64(Buffer.from(binding, "utf8"))}` : "v1";
  return `${head}:${b64(iv)}:${b64(cipher.getAuthTag())}:${b64(data)}`;
}

/** The plaintext and, for a v2 ciphertext, what it is bound to (null for v1). */
export function openWith(key: Buffer, ciphertext: string): { plaintext: string; binding: string | null } {
  const parts = ciphertext.split(":");
  let binding: string | null = null;
  if (parts[0] === "v2" && parts.length === 5) binding = Buffer.from(parts.splice(1, 1)[0], "base64url").toString("utf8");
  else if (parts[0] !== "v1" || parts.length !== 4) throw new DecryptError();
  const [, ivText, tagText, data] = parts;
  const iv = Buffer.from(ivText, "base64url");
  const tag = Buffer.from(tagText, "base64url");
  // GCM accepts shortened tags unless told otherwise; a 4-byte tag could be forged by trial.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new DecryptError();
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
    if (binding !== null) decipher.setAAD(boundAad(binding));
    decipher.setAuthTag(tag);
    return { plaintext: Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8"), binding };
  } catch {
    throw new DecryptError();
  }
}

export function decryptWith(key: Buffer, ciphertext: string): string {
  return openWith(key, ciphertext).plaintext;
}

/** A sub-key for another purpose (the session-signing secret), so operators manage one key only. */
export function deriveKey(key: Buffer, purpose: string): string {
  return Buffer.from(crypto.hkdfSync("sha256", key, Buffer.alloc(0), `parley:${purpose}`, 32)).toString("base64url");
}

/** "sk-...9f3a": enough to recognise a key, never enough to use it. */
export function maskSecret(secret: string): string {
  const s = secret.trim();
  if (s.length <= 8) return "…";
  const prefix = s.match(/^[a-zA-Z]{2,4}-/)?.[0] ?? "";
  return `${prefix}...${s.slice(-4)}`;
}
