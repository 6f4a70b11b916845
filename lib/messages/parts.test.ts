// parts -> blocks -> parts is exact: property tests (fast-check) over parts of every kind and every
// tool state, explicit edge cases, and through a real database (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set). The generated cases run with a fixed seed (PARTS_SEED=<n> runs another);
// a failure reports its seed and path and shrinks the part to a small counterexample.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DRIVERS, makeUser, startTestApp } from "@/test/support/test-app";
import { blockRow } from "./block-writer";
import type { BlockFields, StoredBlock } from "./block-storage";
import type { ParleyPart } from "./message-types";
import { blocksToParts, blockToPart, partToBlock } from "./parts";
import { TOOL_STATES, type ToolState } from "./tool-states";

const SEED = Number(process.env.PARTS_SEED ?? 20261122);

// ---------------------------------------------------------------------------------------------------
// Arbitraries of UI message parts

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = Record<string, unknown>;

// Whole code points (never half a surrogate pair), from several scripts, symbols and controls.
const ALPHABET = Array.from(
  [
    "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789",
    " .,;:!?-_'\"`\\/{}[]()<>@#$%^&*+=|~",
    "\n\r\t\u0001\u0008\u000b\u000c\u001b\u007f\u0085",
    "éüßøçñÅæœ",
    "中文字符日本語ひらがなカタカナ한국어",
    "עבריתالعربيةفارسی",
    "👋🏽👨‍👩‍👧🇺🇳😀🧪𝔘𝔫𝔦",
    "\u0301\u0308\u200d\u200b\u200e\u200f\ufeff\u2028\u2029\ufffd\uffff",
    "\uE000\uE001", // the escape character block-storage.ts uses, and its neighbour
  ].join(""),
);
// Strings that mean something to some layer: Prisma's null sentinels, JSON words, our own markers.
const TRICKY = [
  "DbNull",
  "JsonNull",
  "AnyNull",
  "null",
  "undefined",
  "true",
  "0",
  "[]",
  "{}",
  "unset",
  "nulls",
  "$type",
  "\uE000",
  "\uE0000",
  "\uE000u0000",
  "\ufeffBOM",
];
// What PostgreSQL refuses or changes: U+0000 and unpaired surrogates.
const UNSTORABLE_CHARS = ["\u0000", "\ud800", "\udbff", "\udc00", "\udfff"];

const char = fc.oneof({ arbitrary: fc.constantFrom(...ALPHABET), weight: 30 }, { arbitrary: fc.constantFrom(...UNSTORABLE_CHARS), weight: 1 });

/** Text of any kind; now and then empty, tricky, long (unless `long` is false), or with characters PostgreSQL refuses. */
const text = (max = 40, long = true): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constant(""), weight: 2 },
    { arbitrary: fc.constantFrom(...TRICKY), weight: 1 },
    { arbitrary: fc.string({ unit: char, minLength: 1, maxLength: max }), weight: 12 },
    { arbitrary: fc.string({ unit: "binary", maxLength: max }), weight: 3 },
    { arbitrary: long ? fc.string({ unit: fc.constantFrom(...ALPHABET), minLength: 2000, maxLength: 6000 }) : fc.constant(""), weight: 1 },
  );

const number = fc
  .oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(
      0,
      1,
      -1,
      0.1,
      0.36772752297110856,
      1e21,
      2 ** 60,
      5e-324,
      1.7976931348623157e308,
      -1.5e-300,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
    ),
  )
  .map((n) => (n === 0 ? 0 : n)); // JSON has no -0

const key = fc
  .oneof({ arbitrary: fc.constantFrom("$type", "value", "nulls", "id", "", "type"), weight: 1 }, { arbitrary: text(12, false), weight: 9 })
  .filter((k) => k !== "__proto__");

const { json } = fc.letrec<{ json: Json }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", maxDepth: 4 },
    { arbitrary: fc.oneof(fc.constant(null), fc.boolean(), number, text(), text()), weight: 5 },
    { arbitrary: fc.array(tie("json"), { maxLength: 5 }), weight: 2 },
    { arbitrary: fc.dictionary(key, fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: tie("json"), weight: 5 }), { maxKeys: 5 }), weight: 2 },
  ),
}));
const object = fc.dictionary(key, json, { maxKeys: 5 }) as fc.Arbitrary<{ [key: string]: Json }>;
const providerMetadata = fc.dictionary(fc.oneof(fc.constantFrom("openai", "anthropic", "ollama"), text(10, false)), object, { minKeys: 1, maxKeys: 2 });

/** An optional field: left out, set, or (now and then) set to undefined. */
const maybe = <T>(arb: fc.Arbitrary<T>, weight = 4) => fc.oneof({ arbitrary: arb, weight }, { arbitrary: fc.constant(undefined), weight: 1 });
/** A record whose `optional` keys may be absent (see maybe()). */
function part(required: Record<string, fc.Arbitrary<unknown>>, optional: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<Obj> {
  const opt = Object.fromEntries(Object.entries(optional).map(([k, a]) => [k, maybe(a)]));
  return fc.record({ ...required, ...opt }, { requiredKeys: Object.keys(required) as never[] }) as fc.Arbitrary<Obj>;
}

/** Ids unique across the run (approval ids are unique in the database), now and then with a random tail. */
let seq = 0;
const id = (prefix: string) => fc.oneof(fc.constant(""), text(8, false)).map((tail) => `${prefix}_${SEED}_${seq++}_${tail}`);

/** The states a tool part travels in: every stored state but `aborted` (an aborted call travels as `output-error`). */
type PartState = Exclude<ToolState, "aborted">;
const PART_STATES = TOOL_STATES.filter((s): s is PartState => s !== "aborted");

const textPart = (type: "text" | "reasoning") =>
  part(
    {
      type: fc.constant(type),
      text: fc.oneof({ arbitrary: text(200), weight: 19 }, { arbitrary: fc.tuple(text(), text(), text()).map((t) => t.join("")), weight: 1 }),
    },
    { ...(type === "reasoning" ? { id: id("rs") } : {}), state: fc.constantFrom("streaming", "done"), providerMetadata },
  );

const filePart = part(
  {
    type: fc.constantFrom("file", "reasoning-file"),
    mediaType: fc.oneof(fc.constantFrom("image/png", "application/pdf", "text/plain; charset=utf-8", ""), text(20)),
    url: fc.oneof(
      fc.integer({ min: 1, max: 50 }).map((n) => `data:image/png;base64,${"iVBORw0KGgo".repeat(n)}`),
      text().map((t) => `https://example.com/${t}`),
    ),
  },
  { filename: text(), providerMetadata },
);

const sourcePart = (type: "source-url" | "source-document") =>
  type === "source-url"
    ? part(
        {
          type: fc.constant(type),
          sourceId: id("src"),
          url: fc.oneof({ arbitrary: text().map((t) => `https://example.com/${t}`), weight: 9 }, { arbitrary: text(), weight: 1 }),
        },
        { title: text(), providerMetadata },
      )
    : part(
        { type: fc.constant(type), sourceId: id("src"), mediaType: fc.oneof(fc.constantFrom("application/pdf", "text/plain"), text()), title: text() },
        { filename: text(), providerMetadata },
      );

const dataPart = (name: "error" | "notice" | "other") =>
  name === "other"
    ? part(
        {
          type: fc.oneof(fc.constantFrom("usage", "progress", "x", "", "citation"), text(12, false)).map((n) => `data-${n}`),
          data: fc.oneof({ arbitrary: fc.constant(null), weight: 1 }, { arbitrary: json, weight: 9 }),
        },
        { id: id("d") },
      )
    : part(
        {
          type: fc.constant(`data-${name}`),
          data: fc.record({ code: fc.oneof(fc.constantFrom("Timeout", "ToolFailed", "Aborted", "StepLimit"), text(10)), message: text(200) }),
        },
        { id: id("d") },
      );

const approval = (approved?: boolean) =>
  part(
    { id: id("appr"), ...(approved === undefined ? {} : { approved: fc.constant(approved) }) },
    { ...(approved === undefined ? {} : { reason: text(100) }), signature: text(64), descriptor: json, inputSchemaInput: json },
  );

/** The fields of a tool part in `state`. */
function toolStateFields(state: PartState): fc.Arbitrary<Obj> {
  const s = { state: fc.constant(state) };
  switch (state) {
    case "input-streaming":
      return part(s, { input: json, rawInput: text(100), inputEncoding: fc.constantFrom("json", "text") });
    case "input-available":
      return part({ ...s, input: json });
    case "approval-requested":
      return part({ ...s, input: json, approval: approval() });
    case "approval-responded":
      return fc.boolean().chain((approved) => part({ ...s, input: json, approval: approval(approved) }));
    case "output-available":
      return part({ ...s, input: json, output: json }, { preliminary: fc.boolean(), resultProviderMetadata: providerMetadata, approval: approval(true) });
    case "output-error":
      return part(
        {
          ...s,
          input: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: json, weight: 7 }),
          errorText: fc.oneof(
            fc.tuple(fc.constantFrom("Timeout", "InvalidArgs", "NoSuchTool", "Aborted"), text(200)).map(([c, t]) => `[ERROR:${c}] ${t}`),
            text(200),
          ),
        },
        { rawInput: json, resultProviderMetadata: providerMetadata, approval: approval(true) },
      );
    case "output-denied":
      return part({ ...s, input: json, approval: approval(false) });
  }
}

const toolPart = (dynamic: boolean) =>
  fc
    .tuple(
      fc.oneof(fc.constantFrom("search", "get_weather", "fs.read", "mcp__github__create_issue", ""), text(16, false)),
      id("call"),
      part(
        {},
        {
          title: text(),
          providerExecuted: fc.boolean(),
          toolMetadata: object,
          callProviderMetadata: providerMetadata,
          ...(dynamic ? { dynamic: fc.constant(false) } : {}),
        },
      ),
      fc.constantFrom(...PART_STATES).chain(toolStateFields),
    )
    .map(([name, toolCallId, common, fields]) => ({
      ...(dynamic ? { type: "dynamic-tool", toolName: name } : { type: `tool-${name}` }),
      toolCallId,
      ...common,
      ...fields,
    }));

// Tool parts are drawn more often: they have the most states and fields.
const KINDS: fc.Arbitrary<Obj>[] = [
  textPart("text"),
  textPart("reasoning"),
  filePart,
  sourcePart("source-url"),
  sourcePart("source-document"),
  fc.constant({ type: "step-start" }),
  dataPart("error"),
  dataPart("notice"),
  dataPart("other"),
  toolPart(false),
  toolPart(false),
  toolPart(true),
  toolPart(true),
];

/** A part of kind `kind` (an index into KINDS). */
const partOfKind = (kind: number) => KINDS[kind] as unknown as fc.Arbitrary<ParleyPart>;
const anyPart = fc.integer({ min: 0, max: KINDS.length - 1 }).chain(partOfKind);

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
  "reasoning-file",
  "source-url",
  "source-document",
  "step-start",
  "data-error",
  "data-notice",
  "data-*",
  ...["tool", "dynamic-tool"].flatMap((t) => PART_STATES.map((s) => `${t}/${s}`)),
];

// ---------------------------------------------------------------------------------------------------
// Explicit cases

/** One static tool part per state, with the optional fields of that state set. */
const TOOL_STATE_CASES: Record<PartState, Obj> = {
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
  ...PART_STATES.map((state) => ({ name: `tool in state ${state}`, part: tool(TOOL_STATE_CASES[state]) })),
  ...PART_STATES.map((state) => ({
    name: `dynamic-tool in state ${state}`,
    part: {
      type: "dynamic-tool",
      toolName: "mcp__fs__read",
      toolCallId: `call_d_${state}`,
      ...dynamicVariant(TOOL_STATE_CASES[state]),
    } as unknown as ParleyPart,
  })),
  {
    name: "dynamic-tool normalized from a static one (dynamic: false)",
    part: { type: "dynamic-tool", dynamic: false, toolName: "x", toolCallId: "call_nd", state: "input-available", input: {} } as unknown as ParleyPart,
  },
  { name: "output: null", part: tool({ state: "output-available", input: { q: "x" }, output: null }) },
  { name: "input: null", part: tool({ state: "input-available", input: null }) },
  { name: "input: null and output: null", part: tool({ state: "output-available", input: null, output: null }) },
  { name: "output-error with no input", part: tool({ state: "output-error", input: undefined, errorText: "[ERROR:InvalidArgs] bad" }) },
  { name: "input-streaming with nothing yet", part: tool({ state: "input-streaming" }) },
  {
    name: "an aborted call (stored as aborted)",
    part: tool({ state: "output-error", input: { path: "/tmp/a" }, errorText: "[ERROR:Aborted] Stopped before it ran." }),
  },
  {
    name: "an aborted call that had been approved",
    part: tool({
      state: "output-error",
      input: {},
      errorText: "[ERROR:Aborted] Stopped while it ran; it may not have finished.",
      approval: { id: "appr_ab", approved: true },
    }),
  },
  { name: "an empty approval id", part: tool({ state: "approval-responded", input: {}, approval: { id: "", approved: false, reason: "" } }) },
  { name: "a data part whose data is null", part: { type: "data-usage", data: null } as unknown as ParleyPart },
  { name: "a data part whose data is JSON null inside", part: { type: "data-x", data: { a: null, b: [null], c: { d: null } } } as unknown as ParleyPart },
  { name: 'output is the string "DbNull"', part: tool({ state: "output-available", input: "JsonNull", output: "DbNull" }) },
  { name: 'data is the string "JsonNull"', part: { type: "data-x", data: "JsonNull" } as unknown as ParleyPart },
  {
    name: "output with U+0000",
    part: tool({ state: "output-available", input: { path: "/bin/true" }, output: { bytes: "\u007fELF\u0002\u0001\u0001\u0000\u0000" } }),
  },
  { name: "text with U+0000 and a lone surrogate", part: { type: "text", text: "a\u0000b\ud83dc\u0000", state: "done" } },
  { name: "text with the escape character only", part: { type: "text", text: "\uE000\uE0000\uE000u0000" } },
  {
    name: "a text column starting with a BOM",
    part: tool({ state: "output-denied", input: {}, approval: { id: "appr_bom", approved: false, reason: "\ufeffno" } }),
  },
  { name: "a whole JSON value that is a long float", part: tool({ state: "output-available", input: 0.36772752297110856, output: Number.MAX_VALUE }) },
  { name: "whole JSON values that are small numbers and booleans", part: tool({ state: "output-available", input: 0, output: false }) },
  {
    name: 'an object inside a JSON value with "$type": ""',
    part: tool({ state: "output-available", input: [{ $type: "" }], output: { a: { $type: "", value: 1 }, $type: "x" } }),
  },
  {
    name: 'objects inside a JSON value with a "$type" Prisma knows',
    part: { type: "data-x", data: { a: { $type: "BigInt", value: "1" }, b: [{ $type: "Json", value: "[]" }] } } as unknown as ParleyPart,
  },
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

// ---------------------------------------------------------------------------------------------------

describe("parts -> blocks -> parts", () => {
  it.each(named)("$name", ({ part }) => {
    expect(blockToPart(asStored(partToBlock(part)))).toEqual(part);
  });

  it(`generated parts of every kind and state round-trip exactly (fast-check, seed ${SEED})`, () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(anyPart, (part) => {
        seen.add(label(part));
        const before = structuredClone(part);
        const back = blockToPart(asStored(partToBlock(part)));
        expect(part, "partToBlock changed its input").toEqual(before);
        expect(back).toEqual(part);
      }),
      { seed: SEED, numRuns: 500 },
    );
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

  it.skipIf(driver.skip)(`generated messages round-trip exactly (fast-check, seed ${SEED})`, async () => {
    // A message of 1-15 parts; some are first written as another part of the same kind, then updated.
    const withPlaceholder = fc
      .integer({ min: 0, max: KINDS.length - 1 })
      .chain((kind) => fc.tuple(partOfKind(kind), fc.option(partOfKind(kind), { nil: undefined, freq: 2 })));
    await fc.assert(
      fc.asyncProperty(fc.array(withPlaceholder, { minLength: 1, maxLength: 15 }), async (message) => {
        const parts = message.map(([p]) => p);
        expect(
          await roundTrip(
            parts,
            message.map(([, placeholder]) => placeholder),
          ),
        ).toEqual(parts);
      }),
      { seed: SEED + 1, numRuns: 50 },
    );
  });
});
