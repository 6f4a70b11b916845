// The stored form of a message: UI message parts <-> block rows. Each part kind maps its main fields
// to columns (so they can be queried and audited) and keeps every other field in `extras`, so
// parts -> blocks -> parts is exact (lib/chat/parts.test.ts proves it over generated messages).
// Errors and notices travel as data parts (`data-error`, `data-notice`) so a live turn and a
// reloaded one render from the same parts. A tool call's status is its state (tool-states.ts); an
// aborted call is stored as `aborted` and read back as the `output-error` part it travelled as.
import { getToolName, isToolUIPart, type DynamicToolUIPart, type ToolUIPart, type UIMessage } from "ai";
import type { BlockKind, Prisma, ToolSource } from "../db/generated/client";
import { parseToolError } from "../tools/error-codes";
import type { CitationView } from "./citations";
import { toolStateOf } from "./tool-states";

export type ErrorData = { code: string; message: string };
export type NoticeData = { code: string; message: string };

export type ParleyMetadata = {
  status?: "streaming" | "done" | "stopped" | "interrupted" | "error";
  model?: string;
  finishReason?: string;
  usage?: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number; reasoningTokens?: number };
  createdAt?: string;
  /** Numbered citations (lib/chat/citations.ts): sent while the turn streams, rebuilt from rows on reload. */
  citations?: CitationView[];
  /** The provider that answers (the fallback's once it took over); for the usage record. */
  providerId?: string;
  /** The fallback took over: turn-stream.ts turns this into a `FellBack` notice and removes it. */
  fellBack?: NoticeData;
  /** This message's place among its versions (branches.ts), when it has more than one. */
  versions?: { index: number; count: number };
};

export type ParleyDataParts = { error: ErrorData; notice: NoticeData };
export type ParleyUIMessage = UIMessage<ParleyMetadata, ParleyDataParts>;
export type ParleyPart = ParleyUIMessage["parts"][number];

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
type Extras = Record<string, unknown> & { nulls?: string[]; jsonValues?: Record<string, unknown>; escaped?: boolean };

const NO_STATE = "unset";

/** Splits `obj` into the listed keys and the rest; explicit nulls of listed keys are remembered. */
function split(obj: Record<string, unknown>, keys: string[]): { rest: Extras; nulls: string[] } {
  const rest: Extras = {};
  const nulls: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (keys.includes(k)) {
      if (v === null) nulls.push(k);
    } else if (v !== undefined) rest[k] = v;
  }
  return { rest, nulls };
}

function extrasOf(rest: Extras, nulls: string[]): Prisma.InputJsonValue | null {
  const out: Extras = { ...rest };
  if (nulls.length) out.nulls = [...new Set(nulls)];
  return Object.keys(out).length ? (out as Prisma.InputJsonValue) : null;
}

// What the database does not give back as given (lib/chat/parts.test.ts shows each case):
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
  s.replace(ESCAPED, (_, e: string) =>
    e === ESC ? ESC : e === "0" ? "\u0000" : e === "$" ? "$" : String.fromCharCode(parseInt(e.slice(1), 16)),
  );
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
function storable(fields: BlockFields): BlockFields {
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
function unstored(b: StoredBlock): StoredBlock {
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

const json = (v: unknown) => (v === undefined || v === null ? null : (v as Prisma.InputJsonValue));

export function partToBlock(part: ParleyPart): BlockFields {
  return storable(fieldsOf(part));
}

function fieldsOf(part: ParleyPart): BlockFields {
  const p = part as Record<string, unknown> & { type: string };
  switch (p.type) {
    case "text":
    case "reasoning": {
      const { rest, nulls } = split(p, ["type", "text", "state", "providerMetadata"]);
      return {
        kind: p.type,
        status: (p.state as string | undefined) ?? NO_STATE,
        text: p.text as string,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "file": {
      const { rest, nulls } = split(p, ["type", "mediaType", "url", "filename", "providerMetadata"]);
      return {
        kind: "file",
        status: "done",
        mediaType: p.mediaType as string,
        url: p.url as string,
        name: (p.filename as string | undefined) ?? null,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "source-url":
    case "source-document": {
      const { rest, nulls } = split(p, ["type", "url", "title", "mediaType", "filename", "providerMetadata"]);
      return {
        kind: "source",
        status: p.type === "source-url" ? "url" : "document",
        url: (p.url as string | undefined) ?? null,
        text: (p.title as string | undefined) ?? null,
        mediaType: (p.mediaType as string | undefined) ?? null,
        name: (p.filename as string | undefined) ?? null,
        providerMetadata: json(p.providerMetadata),
        extras: extrasOf(rest, nulls),
      };
    }
    case "step-start":
      return { kind: "step", status: "done", extras: extrasOf(split(p, ["type"]).rest, []) };
    case "data-error": {
      const data = p.data as Partial<ErrorData> | null;
      const { rest, nulls } = split(p, ["type", "data"]);
      return {
        kind: "error",
        status: "done",
        errorCode: typeof data?.code === "string" ? data.code : null,
        errorText: typeof data?.message === "string" ? data.message : null,
        data: json(data),
        extras: extrasOf(rest, nulls),
      };
    }
    default:
      if (isToolUIPart(part)) return toolPartToBlock(part);
      if (p.type.startsWith("data-")) {
        const { rest, nulls } = split(p, ["type", "data"]);
        return { kind: "data", status: "done", name: p.type.slice(5), data: json(p.data), extras: extrasOf(rest, nulls) };
      }
      throw new Error(`Unknown message part type: ${p.type}`);
  }
}

function toolPartToBlock(part: ToolUIPart | DynamicToolUIPart): BlockFields {
  const p = part as unknown as Record<string, unknown> & { type: string };
  const dynamic = p.type === "dynamic-tool";
  const { rest, nulls } = split(p, [
    "type",
    "toolName",
    "toolCallId",
    "state",
    "input",
    "output",
    "errorText",
    "approval",
    "callProviderMetadata",
  ]);
  const approval = p.approval as { id: string; approved?: boolean; reason?: string } | undefined;
  if (approval) {
    const otherApproval = split(approval, ["id", "approved", "reason"]).rest;
    if (Object.keys(otherApproval).length) rest.approval = otherApproval;
  }
  return {
    kind: "tool",
    status: toolStateOf(part),
    toolName: getToolName(part),
    toolCallId: p.toolCallId as string,
    dynamic,
    input: json(p.input),
    output: json(p.output),
    errorText: (p.errorText as string | undefined) ?? null,
    // Derived, for queries and audits (the part keeps them in errorText and toolMetadata).
    errorCode: parseToolError(p.errorText as string | undefined)?.code ?? null,
    toolSource: (p.toolMetadata as { source?: string } | undefined)?.source === "mcp" ? "mcp" : null,
    approvalId: approval?.id ?? null,
    approved: approval?.approved ?? null,
    decisionReason: approval?.reason ?? null,
    providerMetadata: json(p.callProviderMetadata),
    extras: extrasOf(rest, nulls),
  };
}

export function blockToPart(stored: StoredBlock): ParleyPart {
  const b = unstored(stored);
  const { nulls = [], ...extras } = b.extras as Extras;
  const withNulls = (part: Record<string, unknown>) => {
    for (const k of nulls) part[k] = null;
    return part as ParleyPart;
  };
  const meta = (key: string, v: unknown) => (v === null || v === undefined ? {} : { [key]: v });
  switch (b.kind) {
    case "text":
    case "reasoning":
      return withNulls({
        type: b.kind,
        text: b.text ?? "",
        ...(b.status === NO_STATE ? {} : { state: b.status }),
        ...meta("providerMetadata", b.providerMetadata),
        ...extras,
      });
    case "file":
      return withNulls({ type: "file", mediaType: b.mediaType, url: b.url, ...meta("filename", b.name), ...meta("providerMetadata", b.providerMetadata), ...extras });
    case "source":
      return withNulls({
        type: b.status === "url" ? "source-url" : "source-document",
        ...meta("url", b.url),
        ...meta("title", b.text),
        ...meta("mediaType", b.mediaType),
        ...meta("filename", b.name),
        ...meta("providerMetadata", b.providerMetadata),
        ...extras,
      });
    case "step":
      return withNulls({ type: "step-start", ...extras });
    case "error":
      return withNulls({ type: "data-error", data: b.data, ...extras });
    case "data":
      return withNulls({ type: `data-${b.name}`, ...meta("data", b.data), ...extras });
    case "tool": {
      const { approval: otherApproval, ...rest } = extras as Extras & { approval?: Record<string, unknown> };
      const approval =
        b.approvalId !== null
          ? {
              id: b.approvalId,
              ...(b.approved === null ? {} : { approved: b.approved }),
              ...(b.decisionReason === null ? {} : { reason: b.decisionReason }),
              ...otherApproval,
            }
          : undefined;
      return withNulls({
        type: b.dynamic ? "dynamic-tool" : `tool-${b.toolName}`,
        ...(b.dynamic ? { toolName: b.toolName } : {}),
        toolCallId: b.toolCallId,
        state: b.status === "aborted" ? "output-error" : b.status,
        ...meta("input", b.input),
        ...meta("output", b.output),
        ...meta("errorText", b.errorText),
        ...(approval ? { approval } : {}),
        ...meta("callProviderMetadata", b.providerMetadata),
        ...rest,
      });
    }
  }
}

/** Every UI part of a stored message, in order. */
export function blocksToParts(blocks: StoredBlock[]): ParleyPart[] {
  return blocks.map(blockToPart);
}
