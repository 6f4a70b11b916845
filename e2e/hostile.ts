// Hostile inputs for the fuzz spec (hostile-input.spec.ts): a fixed corpus (NUL bytes, broken
// %-encoding, bodies over 1 MB, deep nesting, wrong types, forged ids) and fast-check generators
// (seeded, so a failure can be replayed), plus the encoders for calling server actions by hand.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";

/** A cuid-shaped id that names nothing. */
export const FORGED_ID = "cm0forgedforgedforged0001";

/** Strings no field anywhere may accept (refused before anything is written). */
export const INVALID_STRINGS = ["a\0b", "\0", "x".repeat(100_001)];

/** Strings that are odd but may be valid text somewhere. */
export const ODD_STRINGS = [
  "",
  " ",
  "' OR 1=1 --",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "%E0%A4%A",
  "🙂".repeat(500),
  "__proto__",
  "$$x",
  "$K1",
  "-1",
  "1e309",
  "javascript:alert(1)",
  "http://169.254.169.254/latest/meta-data/",
  "a\r\nX-Injected: 1",
  FORGED_ID,
];

/** Field names the app's forms use, so hostile values reach every field a schema reads. */
export const FIELD_NAMES = [
  "name",
  "email",
  "password",
  "token",
  "next",
  "team",
  "role",
  "days",
  "inviteId",
  "membershipId",
  "serverId",
  "toolId",
  "enabled",
  "policy",
  "transport",
  "url",
  "headers",
  "bearerToken",
  "command",
  "args",
  "env",
  "providerId",
  "kind",
  "baseUrl",
  "apiKey",
  "clearApiKey",
  "modelRowId",
  "modelId",
  "modelIds",
  "label",
  "contextWindow",
  "toolCalling",
  "defaultModelId",
  "fallbackModelId",
];

/** Path segments where an id belongs. */
export const HOSTILE_SEGMENTS = [
  FORGED_ID,
  "%00",
  "abc%00def",
  "%E0%A4%A",
  "%ZZ",
  "%C0%AF",
  "x".repeat(3000),
  "..%2F..%2Fetc%2Fpasswd",
  "'%20OR%201=1--",
  "%F0%9F%99%82",
  "null",
  "-1",
];

/** An action's arguments as React's client encodes them without FormData: a JSON array, text/plain. */
export const jsonBody = (args: unknown) => JSON.stringify(args);

/** JSON bodies in shapes the server must refuse (or that decode to arguments of the wrong shape). */
export function hostileActionBodies(otherIds: string[]): { label: string; body: string | Buffer }[] {
  const deep = "[".repeat(5000) + "]".repeat(5000);
  return [
    { label: "empty", body: "" },
    { label: "not json", body: "not json {" },
    { label: "string root", body: '"x"' },
    { label: "object root", body: '{"a":1}' },
    { label: "no args", body: "[]" },
    { label: "null args", body: "[null,null]" },
    { label: "numbers", body: "[1,2,3]" },
    { label: "state and a string for the form", body: jsonBody([{ ok: false }, "not a form"]) },
    { label: "state and an object for the form", body: jsonBody([{ ok: false }, { name: "x", serverId: FORGED_ID }]) },
    { label: "NUL in a string", body: '["a\\u0000b"]' },
    { label: "forged id", body: jsonBody([FORGED_ID]) },
    ...otherIds.map((id) => ({ label: "another's id", body: jsonBody([id]) })),
    { label: "100k string", body: jsonBody(["x".repeat(100_001)]) },
    { label: "deep nesting", body: deep },
    { label: "2,000 arguments", body: jsonBody(new Array(2000).fill(0)) },
    { label: "missing FormData reference", body: '["$K1"]' },
    { label: "missing Map reference", body: '["$Q1"]' },
    { label: "missing promise reference", body: '["$@1"]' },
    { label: "server reference", body: '["$h1"]' },
    { label: "temporary reference", body: '["$T1"]' },
    { label: "huge BigInt", body: `["$n${"9".repeat(400)}"]` },
    { label: "bad date", body: '["$Dnot-a-date"]' },
    { label: "blob reference", body: '["$B1"]' },
    { label: "stream reference", body: '["$R1"]' },
    { label: "typed array", body: '["$A1"]' },
    { label: "invalid UTF-8", body: Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]) },
    { label: "over 1 MB", body: jsonBody(["x".repeat(1_100_000)]) },
  ];
}

/** A multipart/form-data body with exactly these fields (a file when a filename is given). */
export function multipart(fields: [name: string, value: string | Buffer, filename?: string][]): { body: Buffer; contentType: string } {
  const boundary = `----parleyfuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value, filename] of fields) {
    const disposition = `form-data; name="${name.replace(/"/g, "%22")}"${filename ? `; filename="${filename}"` : ""}`;
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `action(state, formData)` as React's client sends it: `_1_<name>` fields and `0` = the arguments. */
export function multipartAction(fields: [string, string][], root = '[{"ok":false},"$K1"]', file?: Buffer) {
  return multipart([
    ...fields.map(([n, v]): [string, string] => [`_1_${n}`, v]),
    ...(file ? [["_1_upload", file, "a.bin"] as [string, Buffer, string]] : []),
    ["0", root],
  ]);
}

/** Seeded generators: random JSON arguments and random form fields with hostile values. */
export function generated(seed: number, runs: number) {
  const hostileString = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.constantFrom(...ODD_STRINGS, ...INVALID_STRINGS.slice(0, 2)));
  const args = fc.sample(fc.array(fc.jsonValue({ maxDepth: 5 }), { maxLength: 4 }), { seed, numRuns: runs });
  const forms = fc.sample(fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), hostileString), { maxLength: 8 }), { seed: seed + 1, numRuns: runs });
  const jsonBodies = fc.sample(fc.jsonValue({ maxDepth: 6 }), { seed: seed + 2, numRuns: runs });
  return { args, forms, jsonBodies };
}

export type ServerAction = { id: string; name: string; page: string };

/**
 * Every server action of the build, with a page that serves it, from the build's server reference
 * manifest: new actions are fuzzed without touching the spec.
 */
export function serverActions(distDir = process.env.NEXT_DIST_DIR || ".next"): ServerAction[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { workers: Record<string, unknown>; exportedName?: string; filename?: string }>;
  };
  // Sorted by name: the manifest's order changes from build to build, and which bodies go to which
  // action follows the order, so a build must not decide what the spec sends where.
  const entries = Object.entries(manifest.node).sort(([a, x], [b, y]) => (x.exportedName ?? a).localeCompare(y.exportedName ?? b) || a.localeCompare(b));
  return entries.map(([id, entry]) => {
    const worker = Object.keys(entry.workers).find((w) => w.endsWith("/page")) ?? Object.keys(entry.workers)[0];
    const page =
      worker
        .replace(/^app/, "")
        .replace(/\/page$/, "")
        .split("/")
        .filter((s) => !/^\(.*\)$/.test(s))
        .map((s) => (/^\[.*\]$/.test(s) ? FORGED_ID : s))
        .join("/") || "/";
    return { id, name: entry.exportedName ?? id, page };
  });
}

/** better-auth's endpoints that read a body, except those that end sessions (the cast stays signed in). */
export const AUTH_POSTS = [
  "/update-user",
  "/change-password",
  "/change-email",
  "/revoke-session",
  "/request-password-reset",
  "/reset-password",
  "/verify-password",
  "/sign-in/social",
  "/sign-in/email",
  "/link-social",
  "/unlink-account",
  "/get-access-token",
  "/refresh-token",
  "/update-session",
  "/send-verification-email",
  "/delete-user",
];

/** better-auth's endpoints that read a query, each with a NUL byte in it. */
export const AUTH_GETS = [
  "/verify-email?token=%00",
  "/reset-password/abc?callbackURL=%2F%00",
  "/account-info?accountId=%00",
  "/delete-user/callback?token=%00",
  "/get-session?disableCookieCache=%00",
  "/list-accounts?x=%00",
];

/** JSON bodies no better-auth endpoint may take: NUL bytes (PostgreSQL stores none), broken JSON, deep nesting. */
export function authBodies(): [label: string, body: string | Buffer][] {
  const nul = (s: string) => `${s}\0`;
  return [
    ["NUL in a name", JSON.stringify({ name: nul("x") })],
    [
      "NUL in every string",
      JSON.stringify({
        name: nul("x"),
        email: nul("a@b.c"),
        newEmail: nul("n@b.c"),
        password: nul("plover quarry"),
        currentPassword: nul("p"),
        newPassword: nul("lantern plover quarry"),
        token: nul("t"),
        provider: nul("p"),
        providerId: nul("p"),
        accountId: nul("a"),
        callbackURL: nul("/"),
        image: nul("i"),
      }),
    ],
    ["NUL in a key", '{"na\\u0000me":"x"}'],
    ["broken JSON", '{"name": "x", '],
    ["deep nesting", '{"name":'.repeat(2000) + '"x"' + "}".repeat(2000)],
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
  ];
}

const part = (boundary: string, name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
/** Multipart bodies no decoder can read as an action's arguments: empty, truncated, wrong or no boundary, no arguments. */
export const MALFORMED_MULTIPART: [label: string, body: string, contentType: string][] = [
  ["empty multipart (--b--)", "--b--", "multipart/form-data; boundary=b"],
  ["empty multipart with a line end", "--b--\r\n", "multipart/form-data; boundary=b"],
  ["no body at all", "", "multipart/form-data; boundary=b"],
  ["truncated in a value", '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n[{"ok":fal', "multipart/form-data; boundary=b"],
  ["truncated in a header", "--b\r\nContent-Disposition: form-da", "multipart/form-data; boundary=b"],
  ["truncated before the closing boundary", part("b", "0", "[]") + "--b", "multipart/form-data; boundary=b"],
  ["wrong boundary", part("c", "0", "[]") + "--c--\r\n", "multipart/form-data; boundary=b"],
  ["no boundary parameter", part("b", "0", "[]") + "--b--\r\n", "multipart/form-data"],
  ["no arguments field", part("b", "_1_name", "x") + "--b--\r\n", "multipart/form-data; boundary=b"],
  ["a part without a name", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--\r\n", "multipart/form-data; boundary=b"],
];
