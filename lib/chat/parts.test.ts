// parts -> blocks -> parts is exact: for generated parts of every kind and every tool state (seeded,
// so a failure names a seed and replays), for explicit edge cases, and through a real database (PGlite,
// and PostgreSQL when TEST_DATABASE_URL is set). PARTS_SEED=<n> runs the generated cases with another seed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DRIVERS, makeUser, startTestApp } from "../../test/support/test-app";
import { blockRow } from "./block-writer";
import { blocksToParts, blockToPart, partToBlock, type BlockFields, type ParleyPart, type StoredBlock } from "./parts";

const SEED = Number(process.env.PARTS_SEED ?? 20261122);

// ---------------------------------------------------------------------------------------------------
// A seeded generator of UI message parts

/** mulberry32: a tiny, good-enough 32-bit PRNG; uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, unknown>;

// Whole code points (never half a surrogate pair), from several scripts, symbols and controls.
const ALPHABETS = [
  "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789",
  " .,;:!?-_'\"`\\/{}[]()<>@#$%^&*+=|~",
  "\n\r\t\u0001\u0008\u000b\u000c\u001b\u007f\u0085",
  "éüßøçñÅæœ",
  "中文字符日本語ひらがなカタカナ한국어",
  "עבריתالعربيةفارسی",
  "👋🏽👨‍👩‍👧🇺🇳😀🧪𝔘𝔫𝔦",
  "\u0301\u0308\u200d\u200b\u200e\u200f\ufeff\u2028\u2029\ufffd\uffff",
  "\uE000\uE001", // the escape character parts.ts uses, and its neighbour
].map((a) => Array.from(a));
// Strings that mean something to some layer: Prisma's null sentinels, JSON words, our own markers.
const TRICKY = ["DbNull", "JsonNull", "AnyNull", "null", "undefined", "true", "0", "[]", "{}", "unset", "nulls", "$type", "\uE000", "\uE0000", "\uE000u0000", "\ufeffBOM"];
const NUL = "\u0000";
const LONE = ["\ud800", "\udbff", "\udc00", "\udfff"];

class Gen {
  private readonly rand: () => number;
  private seq = 0;
  constructor(private readonly seed: number) {
    this.rand = mulberry32(seed);
  }
  float(): number {
    return this.rand();
  }
  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  bool(p = 0.5): boolean {
    return this.rand() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  /** An id unique across generators (approval ids are unique in the database), now and then with a random tail. */
  id(prefix: string): string {
    return `${prefix}_${this.seed}_${this.seq++}_${this.bool(0.3) ? this.text(8, false) : ""}`;
  }
  private chars(n: number): string {
    const alphabet = this.pick(ALPHABETS);
    const mixed = this.bool(0.3);
    let s = "";
    for (let i = 0; i < n; i++) s += this.pick(mixed ? this.pick(ALPHABETS) : alphabet);
    return s;
  }
  /** Short-ish text of any kind; now and then empty, long (unless `long` is false), tricky, or with characters PostgreSQL refuses. */
  text(max = 40, long = true): string {
    const r = this.float();
    if (r < 0.08) return "";
    if (r < 0.13) return this.pick(TRICKY);
    if (r < 0.15 && long) return this.chars(2000 + this.int(20000));
    let s = this.chars(1 + this.int(max));
    if (this.bool(0.03)) s = this.splice(s, NUL);
    if (this.bool(0.03)) s = this.splice(s, this.pick(LONE));
    return s;
  }
  private splice(s: string, insert: string): string {
    const cps = Array.from(s);
    cps.splice(this.int(cps.length + 1), 0, insert);
    return cps.join("");
  }
  number(): number {
    const n = this.pick([
      () => this.int(2001) - 1000,
      () => (this.float() - 0.5) * 1e6,
      () => this.float(),
      () => this.pick([0, 1, -1, 0.1, 1e21, 2 ** 60, 5e-324, 1.7976931348623157e308, -1.5e-300]),
      () => this.pick([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]),
    ])();
    return n === 0 ? 0 : n; // JSON has no -0
  }
  json(depth = 0): Json {
    const r = this.float();
    if (depth >= 4 || r < 0.55) {
      return this.pick<() => Json>([() => null, () => this.bool(), () => this.number(), () => this.text(), () => this.text()])();
    }
    if (r < 0.75) return Array.from({ length: this.int(6) }, () => this.json(depth + 1));
    return this.object(depth + 1);
  }
  object(depth = 0): { [key: string]: Json } {
    const o: { [key: string]: Json } = {};
    for (let i = this.int(6); i > 0; i--) {
      const key = this.bool(0.1) ? this.pick(["$type", "value", "nulls", "id", "", "type"]) : this.text(12);
      if (key === "__proto__") continue;
      o[key] = this.bool(0.15) ? null : this.json(depth);
    }
    return o;
  }
  providerMetadata(): Record<string, Record<string, Json>> {
    const m: Record<string, Record<string, Json>> = {};
    for (let i = 1 + this.int(2); i > 0; i--) m[this.pick(["openai", "anthropic", "ollama", this.text(10)])] = this.object(1);
    return m;
  }
  /** Sets `key` with probability p (and, now and then, sets it to undefined instead of leaving it out). */
  maybe(o: Obj, key: string, value: () => unknown, p = 0.5): void {
    if (this.bool(p)) o[key] = value();
    else if (this.bool(0.1)) o[key] = undefined;
  }
}

const TOOL_STATES = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
] as const;
type ToolState = (typeof TOOL_STATES)[number];

function textPart(g: Gen, type: "text" | "reasoning"): Obj {
  const p: Obj = { type, text: g.bool(0.05) ? g.text() + g.text() + g.text() : g.text(200) };
  if (type === "reasoning") g.maybe(p, "id", () => g.id("rs"));
  g.maybe(p, "state", () => g.pick(["streaming", "done"]), 0.7);
  g.maybe(p, "providerMetadata", () => g.providerMetadata(), 0.3);
  return p;
}

function filePart(g: Gen): Obj {
  const p: Obj = {
    type: "file",
    mediaType: g.pick(["image/png", "application/pdf", "text/plain; charset=utf-8", "", g.text(20)]),
    url: g.bool() ? `data:image/png;base64,${"iVBORw0KGgo".repeat(1 + g.int(50))}` : `https://example.com/${g.text()}`,
  };
  g.maybe(p, "filename", () => g.text());
  g.maybe(p, "providerMetadata", () => g.providerMetadata(), 0.2);
  return p;
}

function sourcePart(g: Gen, type: "source-url" | "source-document"): Obj {
  const p: Obj = { type, sourceId: g.id("src") };
  if (type === "source-url") {
    p.url = g.bool(0.9) ? `https://example.com/${g.text()}` : g.text();
    g.maybe(p, "title", () => g.text());
  } else {
    p.mediaType = g.pick(["application/pdf", "text/plain", g.text()]);
    p.title = g.text();
    g.maybe(p, "filename", () => g.text());
  }
  g.maybe(p, "providerMetadata", () => g.providerMetadata(), 0.3);
  return p;
}

function dataPart(g: Gen, name: "error" | "notice" | "other"): Obj {
  const p: Obj =
    name === "other"
      ? { type: `data-${g.pick(["usage", "progress", "x", "", "citation", g.text(12)])}`, data: g.bool(0.1) ? null : g.json() }
      : { type: `data-${name}`, data: { code: g.pick(["Timeout", "ToolFailed", "Aborted", "StepLimit", g.text(10)]), message: g.text(200) } };
  g.maybe(p, "id", () => g.id("d"), 0.3);
  return p;
}

function toolPart(g: Gen, dynamic: boolean, state: ToolState = g.pick(TOOL_STATES)): Obj {
  const name = g.pick(["search", "get_weather", "fs.read", "mcp__github__create_issue", "", g.text(16)]);
  const p: Obj = dynamic ? { type: "dynamic-tool", toolName: name, toolCallId: g.id("call") } : { type: `tool-${name}`, toolCallId: g.id("call") };
  if (dynamic) g.maybe(p, "dynamic", () => false, 0.1);
  g.maybe(p, "title", () => g.text(), 0.2);
  g.maybe(p, "providerExecuted", () => g.bool(), 0.2);
  g.maybe(p, "toolMetadata", () => g.object(1), 0.1);
  g.maybe(p, "callProviderMetadata", () => g.providerMetadata(), 0.2);
  p.state = state;
  const approval = (approved?: boolean): Obj => {
    const a: Obj = { id: g.id("appr") };
    if (approved !== undefined) {
      a.approved = approved;
      g.maybe(a, "reason", () => g.text(100));
    }
    g.maybe(a, "signature", () => g.text(64), 0.3);
    g.maybe(a, "descriptor", () => g.json(1), 0.1);
    g.maybe(a, "inputSchemaInput", () => g.json(1), 0.1);
    return a;
  };
  switch (state) {
    case "input-streaming":
      g.maybe(p, "input", () => g.json(), 0.6);
      g.maybe(p, "rawInput", () => g.text(100), 0.4);
      g.maybe(p, "inputEncoding", () => g.pick(["json", "text"]), 0.2);
      break;
    case "input-available":
      p.input = g.json();
      break;
    case "approval-requested":
      p.input = g.json();
      p.approval = approval();
      break;
    case "approval-responded":
      p.input = g.json();
      p.approval = approval(g.bool());
      break;
    case "output-available":
      p.input = g.json();
      p.output = g.json();
      g.maybe(p, "preliminary", () => g.bool(), 0.2);
      g.maybe(p, "resultProviderMetadata", () => g.providerMetadata(), 0.2);
      g.maybe(p, "approval", () => approval(true), 0.3);
      break;
    case "output-error":
      p.input = g.bool(0.3) ? undefined : g.json();
      g.maybe(p, "rawInput", () => g.json(), 0.2);
      p.errorText = g.bool(0.3) ? `[ERROR:${g.pick(["Timeout", "InvalidArgs", "NoSuchTool", "Aborted"])}] ${g.text(200)}` : g.text(200);
      g.maybe(p, "resultProviderMetadata", () => g.providerMetadata(), 0.2);
      g.maybe(p, "approval", () => approval(true), 0.3);
      break;
    case "output-denied":
      p.input = g.json();
      p.approval = approval(false);
      break;
  }
  return p;
}

// Tool parts are drawn more often: they have the most states and fields.
const KINDS: ((g: Gen) => Obj)[] = [
  (g) => textPart(g, "text"),
  (g) => textPart(g, "reasoning"),
  filePart,
  (g) => sourcePart(g, "source-url"),
  (g) => sourcePart(g, "source-document"),
  () => ({ type: "step-start" }),
  (g) => dataPart(g, "error"),
  (g) => dataPart(g, "notice"),
  (g) => dataPart(g, "other"),
  (g) => toolPart(g, false),
  (g) => toolPart(g, false),
  (g) => toolPart(g, true),
  (g) => toolPart(g, true),
];

function randomPart(g: Gen, kind = g.int(KINDS.length)): { part: ParleyPart; kind: number } {
  return { part: KINDS[kind](g) as unknown as ParleyPart, kind };
}

/** What a part is, for checking that the generator reached every kind and state. */
function label(part: ParleyPart): string {
  const p = part as Obj & { type: string };
  if (p.type === "dynamic-tool") return `dynamic-tool/${p.state}`;
  if (p.type.startsWith("tool-")) return `tool/${p.state}`;
  if (p.type === "text" || p.type === "reasoning") return `${p.type}/${p.state ?? "none"}`;
  if (p.type.startsWith("data-") && p.type !== "data-error" && p.type !== "data-notice") return "data-*";
  return p.type;
}

const ALL_LABELS = [
  ...["text", "reasoning"].flatMap((t) => ["none", "streaming", "done"].map((s) => `${t}/${s}`)),
  "file",
  "source-url",
  "source-document",
  "step-start",
  "data-error",
  "data-notice",
  "data-*",
  ...["tool", "dynamic-tool"].flatMap((t) => TOOL_STATES.map((s) => `${t}/${s}`)),
];

// ---------------------------------------------------------------------------------------------------
// Explicit cases

/** One static tool part per state, with the optional fields of that state set. */
const TOOL_STATE_CASES: Record<ToolState, Obj> = {
  "input-streaming": { state: "input-streaming", input: { query: "wea" }, rawInput: '{"query":"wea', inputEncoding: "json" },
  "input-available": { state: "input-available", input: { query: "weather in Zürich" }, title: "Search", providerExecuted: false },
  "approval-requested": { state: "approval-requested", input: { path: "/etc/hosts" }, approval: { id: "appr_req", signature: "c2ln" } },
  "approval-responded": { state: "approval-responded", input: { path: "/etc/hosts" }, approval: { id: "appr_resp", approved: false, reason: "not today" } },
  "output-available": {
    state: "output-available",
    input: { query: "weather" },
    output: { content: [{ type: "text", text: "18 °C" }], isError: false },
    preliminary: true,
    callProviderMetadata: { openai: { itemId: "fc_1" } },
    resultProviderMetadata: { openai: { status: "completed" } },
    approval: { id: "appr_out", approved: true, reason: "ok" },
  },
  "output-error": { state: "output-error", input: undefined, rawInput: "{not json", errorText: "[ERROR:InvalidArgs] input is not JSON" },
  "output-denied": { state: "output-denied", input: { path: "/" }, approval: { id: "appr_denied", approved: false, reason: "too broad" } },
};

function dynamicVariant(fields: Obj): Obj {
  const approval = fields.approval as Obj | undefined;
  return { ...fields, ...(approval ? { approval: { ...approval, id: `${approval.id}_dynamic` } } : {}) };
}

const named: { name: string; part: ParleyPart }[] = [
  ...TOOL_STATES.map((state) => ({ name: `tool in state ${state}`, part: tool(TOOL_STATE_CASES[state]) })),
  ...TOOL_STATES.map((state) => ({
    name: `dynamic-tool in state ${state}`,
    part: { type: "dynamic-tool", toolName: "mcp__fs__read", toolCallId: `call_d_${state}`, ...dynamicVariant(TOOL_STATE_CASES[state]) } as unknown as ParleyPart,
  })),
  { name: "dynamic-tool normalized from a static one (dynamic: false)", part: { type: "dynamic-tool", dynamic: false, toolName: "x", toolCallId: "call_nd", state: "input-available", input: {} } as unknown as ParleyPart },
  { name: "output: null", part: tool({ state: "output-available", input: { q: "x" }, output: null }) },
  { name: "input: null", part: tool({ state: "input-available", input: null }) },
  { name: "input: null and output: null", part: tool({ state: "output-available", input: null, output: null }) },
  { name: "output-error with no input", part: tool({ state: "output-error", input: undefined, errorText: "[ERROR:InvalidArgs] bad" }) },
  { name: "input-streaming with nothing yet", part: tool({ state: "input-streaming" }) },
  { name: "an aborted call (stored as aborted)", part: tool({ state: "output-error", input: { path: "/tmp/a" }, errorText: "[ERROR:Aborted] Stopped before it ran." }) },
  { name: "an aborted call that had been approved", part: tool({ state: "output-error", input: {}, errorText: "[ERROR:Aborted] Stopped while it ran; it may not have finished.", approval: { id: "appr_ab", approved: true } }) },
  { name: "an empty approval id", part: tool({ state: "approval-responded", input: {}, approval: { id: "", approved: false, reason: "" } }) },
  { name: "a data part whose data is null", part: { type: "data-usage", data: null } as unknown as ParleyPart },
  { name: "a data part whose data is JSON null inside", part: { type: "data-x", data: { a: null, b: [null], c: { d: null } } } as unknown as ParleyPart },
  { name: 'output is the string "DbNull"', part: tool({ state: "output-available", input: "JsonNull", output: "DbNull" }) },
  { name: 'data is the string "JsonNull"', part: { type: "data-x", data: "JsonNull" } as unknown as ParleyPart },
  { name: "output with U+0000", part: tool({ state: "output-available", input: { path: "/bin/true" }, output: { bytes: "\u007fELF\u0002\u0001\u0001\u0000\u0000" } }) },
  { name: "text with U+0000 and a lone surrogate", part: { type: "text", text: "a\u0000b\ud83dc\u0000", state: "done" } },
  { name: "text with the escape character only", part: { type: "text", text: "\uE000\uE0000\uE000u0000" } },
  { name: "a text column starting with a BOM", part: tool({ state: "output-denied", input: {}, approval: { id: "appr_bom", approved: false, reason: "\ufeffno" } }) },
  { name: "a whole JSON value that is a long float", part: tool({ state: "output-available", input: 0.36772752297110856, output: Number.MAX_VALUE }) },
  { name: "whole JSON values that are small numbers and booleans", part: tool({ state: "output-available", input: 0, output: false }) },
  { name: 'an object inside a JSON value with "$type": ""', part: tool({ state: "output-available", input: [{ $type: "" }], output: { a: { $type: "", value: 1 }, $type: "x" } }) },
  { name: 'objects inside a JSON value with a "$type" Prisma knows', part: { type: "data-x", data: { a: { $type: "BigInt", value: "1" }, b: [{ $type: "Json", value: "[]" }] } } as unknown as ParleyPart },
  { name: "a JSON key with U+0000", part: { type: "data-x", data: { "k\u0000": "\udc00" } } as unknown as ParleyPart },
  { name: "empty text", part: { type: "text", text: "" } },
  { name: "step-start", part: { type: "step-start" } },
  { name: "an error", part: { type: "data-error", data: { code: "Timeout", message: "The tool took too long." } } },
  { name: "a notice with an id", part: { type: "data-notice", id: "n_1", data: { code: "StepLimit", message: "Step limit reached." } } },
];

function tool(fields: Obj): ParleyPart {
  return { type: "tool-search", toolCallId: `call_${fields.state}`, ...fields } as unknown as ParleyPart;
}

// ---------------------------------------------------------------------------------------------------
// The stored shape, as the database returns it

const JSON_COLUMNS = ["data", "input", "output", "providerMetadata", "extras"] as const;

/** A block row as the database gives it back: absent columns are null, JSON goes through text. */
function asStored(f: BlockFields): StoredBlock {
  const stored: StoredBlock = {
    kind: f.kind,
    status: f.status,
    text: f.text ?? null,
    mediaType: f.mediaType ?? null,
    url: f.url ?? null,
    name: f.name ?? null,
    data: null,
    toolCallId: f.toolCallId ?? null,
    toolName: f.toolName ?? null,
    dynamic: f.dynamic ?? false,
    input: null,
    output: null,
    errorCode: f.errorCode ?? null,
    errorText: f.errorText ?? null,
    approvalId: f.approvalId ?? null,
    approved: f.approved ?? null,
    decisionReason: f.decisionReason ?? null,
    providerMetadata: null,
    extras: null,
  };
  for (const k of JSON_COLUMNS) stored[k] = f[k] === undefined || f[k] === null ? null : JSON.parse(JSON.stringify(f[k]));
  return stored;
}

const preview = (part: ParleyPart) => JSON.stringify(part).slice(0, 400);

// ---------------------------------------------------------------------------------------------------

describe("parts -> blocks -> parts", () => {
  it.each(named)("$name", ({ part }) => {
    expect(blockToPart(asStored(partToBlock(part)))).toEqual(part);
  });

  it(`500 generated parts round-trip exactly (seed ${SEED})`, () => {
    const g = new Gen(SEED);
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const { part } = randomPart(g);
      seen.add(label(part));
      const before = structuredClone(part);
      const back = blockToPart(asStored(partToBlock(part)));
      expect(part, `partToBlock changed its input (part ${i})`).toEqual(before);
      expect(back, `seed ${SEED}, part ${i}: ${preview(part)}`).toEqual(part);
    }
    expect([...seen].sort()).toEqual([...ALL_LABELS].sort());
  });

  it("an aborted call is stored with the status aborted and its code, and read back as the output-error it travelled as", () => {
    const part = tool({ state: "output-error", input: { path: "/tmp/a" }, errorText: "[ERROR:Aborted] Stopped before it ran." });
    const block = partToBlock(part);
    expect(block).toMatchObject({ status: "aborted", errorCode: "Aborted" });
    expect(blockToPart(asStored(block))).toEqual(part);
    expect(partToBlock(tool({ state: "output-error", input: {}, errorText: "[ERROR:Timeout] slow" })).status).toBe("output-error");
  });

  it("ordinary strings are stored as they are (escaping only when PostgreSQL needs it)", () => {
    const block = partToBlock({ type: "text", text: "héllo 👋🏽 \uE000", state: "done" });
    expect(block.text).toBe("héllo 👋🏽 \uE000");
    expect(block.extras).toBeNull();
    const escaped = partToBlock({ type: "text", text: "a\u0000b" });
    expect(escaped.text).not.toContain("\u0000");
  });
});

describe.each(DRIVERS)("parts -> block rows -> parts on $name", (driver) => {
  let stop: () => Promise<void>;
  let chatId: string;
  let messages = 0;

  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
    const prisma = await db();
    const user = await makeUser("parts");
    const team = await prisma.team.create({ data: { name: "Parts" } });
    chatId = (await prisma.chat.create({ data: { teamId: team.id, userId: user.id } })).id;
  });
  afterAll(async () => {
    await stop?.();
  });

  /**
   * Writes parts as one message's blocks and reads them back. A part with a placeholder is first
   * written as the placeholder (another part of the same kind) and then updated, as the block writer
   * rewrites a block while its part changes.
   */
  async function roundTrip(parts: ParleyPart[], placeholders: (ParleyPart | undefined)[] = []): Promise<ParleyPart[]> {
    const prisma = await db();
    const message = await prisma.message.create({ data: { id: `msg_${driver.kind}_${messages++}`, chatId, role: "assistant" } });
    await prisma.block.createMany({ data: parts.map((part, i) => ({ ...blockRow(partToBlock(placeholders[i] ?? part)), messageId: message.id, ordinal: i })) });
    for (let i = 0; i < parts.length; i++) {
      if (!placeholders[i]) continue;
      await prisma.block.update({ where: { messageId_ordinal: { messageId: message.id, ordinal: i } }, data: blockRow(partToBlock(parts[i])) });
    }
    const rows = await prisma.block.findMany({ where: { messageId: message.id }, orderBy: { ordinal: "asc" } });
    return blocksToParts(rows);
  }

  it.skipIf(driver.skip).each(named)("$name", async ({ part }) => {
    expect(await roundTrip([part])).toEqual([part]);
  });

  it.skipIf(driver.skip)(`50 generated messages round-trip exactly (seed ${SEED})`, async () => {
    const g = new Gen(SEED + 1);
    for (let m = 0; m < 50; m++) {
      const parts: ParleyPart[] = [];
      const placeholders: (ParleyPart | undefined)[] = [];
      for (let i = 1 + g.int(15); i > 0; i--) {
        const { part, kind } = randomPart(g);
        parts.push(part);
        placeholders.push(g.bool(0.3) ? randomPart(g, kind).part : undefined);
      }
      const back = await roundTrip(parts, placeholders);
      expect(back.length).toBe(parts.length);
      for (let i = 0; i < parts.length; i++) expect(back[i], `seed ${SEED + 1}, message ${m}, part ${i}: ${preview(parts[i])}`).toEqual(parts[i]);
    }
  });
});
