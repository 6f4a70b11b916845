// The columns of a block row, and how any part's values are stored so the database gives them back
// exactly: storable() before a write, unstored() after a read (lib/messages/parts.test.ts shows each case).
import type { BlockKind, Prisma, ToolSource } from "../db/generated/client";

/** The columns of a block that a part determines (everything but ids, message and timestamps). */
export type BlockFields = {
  kind: BlockKind;
  status: string;
  text?: string | null;
  mediaType?: string | null;
  url?: string | null;
  name?: string | null;
  data?: Prisma.InputJsonValue | null;
  toolCallId?: string | null;
  toolName?: string | null;
  toolSource?: ToolSource | null;
  dynamic?: boolean;
  input?: Prisma.InputJsonValue | null;
  output?: Prisma.InputJsonValue | null;
  errorCode?: string | null;
  errorText?: string | null;
  approvalId?: string | null;
  approved?: boolean | null;
  decisionReason?: string | null;
  providerMetadata?: Prisma.InputJsonValue | null;
  extras?: Prisma.InputJsonValue | null;
};

/** A block as read back (only the fields blockToPart needs). */
export type StoredBlock = {
  kind: BlockKind;
  status: string;
  text: string | null;
  mediaType: string | null;
  url: string | null;
  name: string | null;
  data: unknown;
  toolCallId: string | null;
  toolName: string | null;
  dynamic: boolean;
  input: unknown;
  output: unknown;
  errorCode: string | null;
  errorText: string | null;
  approvalId: string | null;
  approved: boolean | null;
  decisionReason: string | null;
  providerMetadata: unknown;
  extras: unknown;
};

/**
 * The part's fields that have no column, plus bookkeeping: `nulls` (keys whose value was an explicit
 * null, where a column cannot tell null from absent), `jsonValues` and `escaped` (see storable()).
 */
export type Extras = Record<string, unknown> & { nulls?: string[]; jsonValues?: Record<string, unknown>; escaped?: boolean };

// What the database does not give back as given (lib/messages/parts.test.ts shows each case):
// - A Json column whose whole value is a number or the string "DbNull" or "JsonNull": Prisma rounds a
//   top-level number (0.36772752297110856 -> 0.3677275229711086, Number.MAX_VALUE -> null) and takes
//   those strings for its null sentinels (SQL NULL, JSON null). Such a value is kept in
//   extras.jsonValues and the column is null. Numbers inside objects and arrays are stored exactly.
// - PostgreSQL stores no U+0000 (refused in text and jsonb) and no unpaired UTF-16 surrogate (refused
//   in jsonb, turned into U+FFFD in text); PGlite drops a text column's leading U+FEFF (BOM); Prisma
//   throws "Unknown tagged value" on an object inside a Json value whose "$type" is "". A block with
//   any of these has all its strings escaped (ESC -> ESC ESC, U+0000 -> ESC 0, unpaired surrogate or
//   leading BOM -> ESC u + 4 hex digits, and every object key "$type" -> ESC $type) and extras.escaped
//   set. Escaping leaves ordinary strings (ids, names, states) unchanged.
const JSON_COLUMNS = ["data", "input", "output", "providerMetadata"] as const;
const STORED_VALUES = [
  "status",
  "text",
  "mediaType",
  "url",
  "name",
  "toolCallId",
  "toolName",
  "errorCode",
  "errorText",
  "approvalId",
  "decisionReason",
  ...JSON_COLUMNS,
  "extras",
] as const;
const PRISMA_NULL_NAMES = new Set(["DbNull", "JsonNull"]);
const ESC = "\uE000";
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|^\uFEFF/;
const TO_ESCAPE = new RegExp(`${ESC}|${UNSTORABLE.source}`, "g");
const ESCAPED = new RegExp(`${ESC}(${ESC}|0|\\$|u[0-9a-f]{4})`, "g");

const escapeString = (s: string) =>
  s.replace(TO_ESCAPE, (c) => (c === ESC ? ESC + ESC : c === "\u0000" ? `${ESC}0` : `${ESC}u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
const unescapeString = (s: string) =>
  s.replace(ESCAPED, (_, e: string) => (e === ESC ? ESC : e === "0" ? "\u0000" : e === "$" ? "$" : String.fromCharCode(parseInt(e.slice(1), 16))));
const escapeKey = (k: string) => (k === "$type" ? `${ESC}$type` : escapeString(k));

/** Applies `value` to every string in a JSON value and `key` to every object key. */
function mapStrings(v: unknown, value: (s: string) => string, key = value): unknown {
  if (typeof v === "string") return value(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, value, key));
  if (v !== null && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [key(k), mapStrings(x, value, key)]));
  }
  return v;
}

/** Whether a value holds something the database refuses or changes (see above). */
function unstorable(v: unknown): boolean {
  if (typeof v === "string") return UNSTORABLE.test(v);
  if (Array.isArray(v)) return v.some(unstorable);
  if (v !== null && typeof v === "object") {
    return Object.entries(v).some(([k, x]) => UNSTORABLE.test(k) || (k === "$type" && x === "") || unstorable(x));
  }
  return false;
}

/** Block fields the database stores exactly (see above); blockToPart undoes it. */
export function storable(fields: BlockFields): BlockFields {
  const out: Record<string, unknown> = { ...fields };
  const extras: Extras = { ...((fields.extras as Extras | null | undefined) ?? {}) };
  for (const k of JSON_COLUMNS) {
    const v = out[k];
    if (typeof v === "number" || (typeof v === "string" && PRISMA_NULL_NAMES.has(v))) {
      extras.jsonValues = { ...extras.jsonValues, [k]: v };
      out[k] = null;
    }
  }
  out.extras = extras;
  if (STORED_VALUES.some((k) => unstorable(out[k]))) {
    for (const k of STORED_VALUES) out[k] = mapStrings(out[k], escapeString, escapeKey);
    (out.extras as Extras).escaped = true;
  }
  if (!Object.keys(out.extras as Extras).length) out.extras = null;
  return out as BlockFields;
}

/** Undoes storable(): the block's values as partToBlock computed them before storing. */
export function unstored(b: StoredBlock): StoredBlock {
  const out: Record<string, unknown> = { ...b };
  if ((b.extras as Extras | null)?.escaped) {
    for (const k of STORED_VALUES) out[k] = mapStrings(out[k], unescapeString);
  }
  const { jsonValues, ...extras } = ((out.extras as Extras | null) ?? {}) as Extras;
  delete extras.escaped;
  for (const [k, v] of Object.entries(jsonValues ?? {})) out[k] = v;
  out.extras = extras;
  return out as StoredBlock;
}
