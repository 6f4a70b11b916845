// Secret encryption at rest: what an operator relies on is that a secret comes back exactly, that a wrong
// key or an altered value is an error (never garbage), and that the key is found, kept and never
// silently replaced.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, removeDir } from "../../test/support/test-databases";
import { DecryptError, decryptWith, deriveKey, encryptWith, KEY_FILE, loadMasterKey, maskSecret, openWith, parseKey, SecretKeyError } from "./secrets";

const key = crypto.randomBytes(32);
const b64u = (b: Buffer) => b.toString("base64url");

describe("secrets bound to an origin (v2)", () => {
  it("carry their binding, and decrypt only with it unaltered", () => {
    const c = encryptWith(key, "sk-bound", "https://api.example.com");
    expect(openWith(key, c)).toEqual({ plaintext: "sk-bound", binding: "https://api.example.com" });
    expect(openWith(key, encryptWith(key, "sk-old"))).toEqual({ plaintext: "sk-old", binding: null });
    // Swapping the binding for the attacker's origin breaks authentication: no plaintext, for any origin.
    const parts = c.split(":");
    parts[1] = Buffer.from("http://127.0.0.1:9999").toString("base64url");
    expect(() => openWith(key, parts.join(":"))).toThrow(DecryptError);
    // Dropping the binding (pretending to be an unbound v1 ciphertext) fails too.
    expect(() => decryptWith(key, ["v1", ...c.split(":").slice(2)].join(":"))).toThrow(DecryptError);
  });
});

describe("encryptWith / decryptWith", () => {
  it("round-trips secrets, including empty and non-ASCII ones", () => {
    for (const s of ["sk-abcdef1234567890", "", "ünïcødé 🔑 " + "x".repeat(10_000), '{"Authorization":"Bearer a:b:c"}']) {
      expect(decryptWith(key, encryptWith(key, s))).toBe(s);
    }
  });

  it("gives a different ciphertext each time, none containing the secret", () => {
    const a = encryptWith(key, "sk-same-secret");
    const b = encryptWith(key, "sk-same-secret");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]*$/);
    expect(a).not.toContain("sk-same-secret");
    expect(a.split(":")[1]).not.toBe(b.split(":")[1]); // a fresh IV each time
  });

  it("a wrong key is a DecryptError, never garbage", () => {
    const c = encryptWith(key, "sk-secret");
    expect(() => decryptWith(crypto.randomBytes(32), c)).toThrow(DecryptError);
    expect(() => decryptWith(crypto.randomBytes(32), c)).toThrow(/PARLEY_SECRET_KEY/);
  });

  it("any altered part of the ciphertext is a DecryptError", () => {
    const c = encryptWith(key, "sk-secret-value");
    const [v, iv, tag, data] = c.split(":");
    const flip = (s: string, i = 0) => {
      const buf = Buffer.from(s, "base64url");
      buf[i] ^= 1;
      return b64u(buf);
    };
    const altered = [
      `${v}:${flip(iv)}:${tag}:${data}`,
      `${v}:${iv}:${flip(tag)}:${data}`,
      `${v}:${iv}:${tag}:${flip(data)}`,
      `${v}:${iv}:${tag}:${flip(data, 5)}`,
      `${v}:${iv}:${tag}:${data.slice(0, -2)}`,
      `${v}:${iv}:${tag}:`,
      `v2:${iv}:${tag}:${data}`,
      `${v}:${iv}:${tag}`,
      "",
      "not a ciphertext",
      "sk-plaintext-stored-by-mistake",
    ];
    for (const a of altered) expect(() => decryptWith(key, a), a).toThrow(DecryptError);
  });

  it("a shortened authentication tag is a DecryptError (GCM with a 4-byte tag is forgeable)", () => {
    const [v, iv, tag, data] = encryptWith(key, "sk-secret-value").split(":");
    for (const n of [4, 8, 12, 15]) {
      const short = b64u(Buffer.from(tag, "base64url").subarray(0, n));
      expect(() => decryptWith(key, `${v}:${iv}:${short}:${data}`), `tag of ${n} bytes`).toThrow(DecryptError);
    }
  });

  it("extra fields appended to a ciphertext are a DecryptError", () => {
    const c = encryptWith(key, "sk-secret-value");
    expect(() => decryptWith(key, `${c}:extra`)).toThrow(DecryptError);
  });

  it("rejects an IV of another length", () => {
    const [v, iv, tag, data] = encryptWith(key, "x").split(":");
    const longIv = b64u(Buffer.concat([Buffer.from(iv, "base64url"), Buffer.alloc(4)]));
    expect(() => decryptWith(key, `${v}:${longIv}:${tag}:${data}`)).toThrow(DecryptError);
  });
});

describe("parseKey", () => {
  it("accepts 64 hex characters and base64 or base64url of 32 bytes (with surrounding whitespace)", () => {
    expect(parseKey(key.toString("hex"))).toEqual(key);
    expect(parseKey(key.toString("hex").toUpperCase())).toEqual(key);
    expect(parseKey(key.toString("base64"))).toEqual(key);
    expect(parseKey(key.toString("base64").replace(/=+$/, ""))).toEqual(key);
    expect(parseKey(b64u(key))).toEqual(key);
    expect(parseKey(`  ${key.toString("base64")}\n`)).toEqual(key);
    // A key with both + and / in base64 (and - and _ in base64url) decodes the same either way.
    const k = Buffer.alloc(32, 0xfb);
    expect(parseKey(k.toString("base64"))).toEqual(k);
    expect(parseKey(b64u(k))).toEqual(k);
  });

  it("rejects anything else with SecretKeyError and a hint how to make a key", () => {
    const bad = [
      "",
      "short",
      "correct horse battery staple",
      key.toString("hex").slice(0, 62),
      key.toString("hex") + "a",
      crypto.randomBytes(16).toString("base64"),
      crypto.randomBytes(31).toString("base64"),
      crypto.randomBytes(33).toString("base64"),
      crypto.randomBytes(64).toString("hex"),
      // 32 bytes of base64 with characters that are not base64 mixed in: not a key someone generated.
      "a".repeat(43) + "!!",
      key.toString("base64").slice(0, 20) + " " + key.toString("base64").slice(20),
      key.toString("base64").slice(0, 20) + "$" + key.toString("base64").slice(20),
    ];
    for (const b of bad) {
      expect(() => parseKey(b), JSON.stringify(b)).toThrow(SecretKeyError);
      expect(() => parseKey(b), JSON.stringify(b)).toThrow(/openssl rand -base64 32/);
    }
  });
});

describe("loadMasterKey", () => {
  let dir: string;
  let savedEnv: string | undefined;
  beforeEach(() => {
    dir = makeTempDir();
    savedEnv = process.env.PARLEY_SECRET_KEY;
    delete process.env.PARLEY_SECRET_KEY;
  });
  afterEach(() => {
    if (savedEnv === undefined) delete process.env.PARLEY_SECRET_KEY;
    else process.env.PARLEY_SECRET_KEY = savedEnv;
    removeDir(dir);
  });

  it("generates a key file readable only by its owner, and reuses it on the next start", () => {
    const dataDir = path.join(dir, "data"); // not created yet
    const first = loadMasterKey(dataDir, true);
    expect(first.source).toBe("generated");
    expect(first.key).toHaveLength(32);
    const file = path.join(dataDir, KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(parseKey(fs.readFileSync(file, "utf8"))).toEqual(first.key);

    const second = loadMasterKey(dataDir, true);
    expect(second).toEqual({ key: first.key, source: "file" });
    // Reused even when generating is not allowed.
    expect(loadMasterKey(dataDir, false)).toEqual({ key: first.key, source: "file" });
  });

  it("two keys generated in two data directories differ", () => {
    expect(loadMasterKey(path.join(dir, "a"), true).key).not.toEqual(loadMasterKey(path.join(dir, "b"), true).key);
  });

  it("refuses to generate a key when not allowed (the database holds secrets), naming what to restore", () => {
    let err: unknown;
    try {
      loadMasterKey(dir, false);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SecretKeyError);
    expect((err as Error).message).toMatch(/PARLEY_SECRET_KEY/);
    expect((err as Error).message).toContain(KEY_FILE);
    expect(fs.existsSync(path.join(dir, KEY_FILE))).toBe(false);
  });

  it("PARLEY_SECRET_KEY wins over the key file, and no file is written", () => {
    const fileKey = loadMasterKey(dir, true).key;
    const envKey = crypto.randomBytes(32);
    process.env.PARLEY_SECRET_KEY = envKey.toString("base64");
    expect(loadMasterKey(dir, true)).toEqual({ key: envKey, source: "env" });
    expect(loadMasterKey(dir, false)).toEqual({ key: envKey, source: "env" });
    expect(parseKey(fs.readFileSync(path.join(dir, KEY_FILE), "utf8"))).toEqual(fileKey);

    const other = makeTempDir();
    try {
      expect(loadMasterKey(other, true).source).toBe("env");
      expect(fs.existsSync(path.join(other, KEY_FILE))).toBe(false);
    } finally {
      removeDir(other);
    }
  });

  it("an invalid PARLEY_SECRET_KEY is a SecretKeyError, not a silently generated key", () => {
    process.env.PARLEY_SECRET_KEY = "not-a-key";
    expect(() => loadMasterKey(dir, true)).toThrow(SecretKeyError);
    expect(fs.existsSync(path.join(dir, KEY_FILE))).toBe(false);
  });

  it("a blank PARLEY_SECRET_KEY counts as unset", () => {
    process.env.PARLEY_SECRET_KEY = "  ";
    expect(loadMasterKey(dir, true).source).toBe("generated");
  });

  it("a damaged key file is a SecretKeyError that names the file, and is not overwritten", () => {
    const file = path.join(dir, KEY_FILE);
    fs.writeFileSync(file, "garbage\n", { mode: 0o600 });
    let err: unknown;
    try {
      loadMasterKey(dir, true);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SecretKeyError);
    expect((err as Error).message).toContain(file);
    expect(fs.readFileSync(file, "utf8")).toBe("garbage\n");
  });

  it("when another process generated the key file first, its key is used", () => {
    // Simulate losing the race: the file appears between the existence check and the write.
    const theirs = crypto.randomBytes(32);
    const realExists = fs.existsSync;
    let raced = false;
    const spy = (p: fs.PathLike) => {
      if (!raced && String(p) === path.join(dir, KEY_FILE)) {
        raced = true;
        fs.writeFileSync(path.join(dir, KEY_FILE), b64u(theirs) + "\n", { mode: 0o600 });
        return false;
      }
      return realExists(p);
    };
    (fs as { existsSync: typeof fs.existsSync }).existsSync = spy as typeof fs.existsSync;
    try {
      expect(loadMasterKey(dir, true)).toEqual({ key: theirs, source: "file" });
    } finally {
      (fs as { existsSync: typeof fs.existsSync }).existsSync = realExists;
    }
  });
});

describe("deriveKey", () => {
  it("is stable per key and purpose, and differs between purposes and keys", () => {
    expect(deriveKey(key, "auth")).toBe(deriveKey(key, "auth"));
    expect(deriveKey(key, "auth")).not.toBe(deriveKey(key, "other"));
    expect(deriveKey(crypto.randomBytes(32), "auth")).not.toBe(deriveKey(key, "auth"));
    expect(Buffer.from(deriveKey(key, "auth"), "base64url")).toHaveLength(32);
    expect(deriveKey(key, "auth")).not.toContain(b64u(key));
  });
});

describe("maskSecret", () => {
  it("shows the prefix and the last four characters only", () => {
    expect(maskSecret("sk-abcdef1234567890")).toBe("sk-...7890");
    expect(maskSecret("  sk-abcdef1234567890\n")).toBe("sk-...7890");
    expect(maskSecret("sk-proj-abcdefghijkl9f3a")).toBe("sk-...9f3a");
    expect(maskSecret("abcdefghijklmnop")).toBe("...mnop");
  });

  it("reveals nothing of a short secret", () => {
    expect(maskSecret("12345678")).toBe("…");
    expect(maskSecret("")).toBe("…");
  });
});
