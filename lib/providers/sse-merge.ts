// Merges a provider's text-delta events that arrive together, before the provider's parser sees them.
// A model streams one small event per token; on a busy server several of a chat's events wait in one
// socket read, and each would go through the whole per-event path (decoding, SSE parsing, JSON, the
// provider's schema check and transform, every later stage). Here consecutive events that only add
// text to the same block are folded into one event with the joined text, so that path runs once per
// read instead of once per token: the work per chat falls as the load rises. On an idle server each
// read holds one event, which goes on untouched and at once. Anything else (a role, a tool call, a
// finish, usage, ids, comments, CRLF streams) passes byte for byte.

export type SseDialect = "chat" | "responses" | "anthropic";

/** Where an event's text sits, and which block it belongs to (events merge only within one block). */
type TextSlot = { block: string; text: string; set(obj: Record<string, unknown>, text: string): void };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const CHAT_TEXT_FIELDS = ["content", "reasoning_content", "reasoning"] as const;

/** Chat Completions (and OpenAI-compatible servers): one choice whose delta holds only text. */
function chatSlot(obj: Record<string, unknown>): TextSlot | null {
  const choices = obj.choices;
  if (!Array.isArray(choices) || choices.length !== 1 || obj.usage != null) return null;
  const choice = choices[0];
  if (!isRecord(choice) || choice.finish_reason != null || choice.logprobs != null || !isRecord(choice.delta)) return null;
  let field: (typeof CHAT_TEXT_FIELDS)[number] | undefined;
  for (const [key, value] of Object.entries(choice.delta)) {
    if (key === "role" || value == null) continue;
    if (field || !(CHAT_TEXT_FIELDS as readonly string[]).includes(key) || typeof value !== "string") return null;
    field = key as (typeof CHAT_TEXT_FIELDS)[number];
  }
  if (!field) return null;
  const text = choice.delta[field] as string;
  const at = field;
  return {
    block: `${String(obj.id)}|${String(choice.index)}|${at}`,
    text,
    set: (o, t) => (((o.choices as Record<string, unknown>[])[0].delta as Record<string, unknown>)[at] = t),
  };
}

/** Responses API: output text and reasoning summary text deltas, without logprobs. */
function responsesSlot(obj: Record<string, unknown>): TextSlot | null {
  if (obj.type !== "response.output_text.delta" && obj.type !== "response.reasoning_summary_text.delta") return null;
  if (typeof obj.delta !== "string" || (Array.isArray(obj.logprobs) ? obj.logprobs.length > 0 : obj.logprobs != null)) return null;
  return {
    block: `${obj.type}|${String(obj.item_id)}|${String(obj.output_index)}|${String(obj.content_index)}|${String(obj.summary_index)}`,
    text: obj.delta,
    set: (o, t) => (o.delta = t),
  };
}

/** Anthropic Messages: text and thinking deltas of one content block. */
function anthropicSlot(obj: Record<string, unknown>): TextSlot | null {
  if (obj.type !== "content_block_delta" || !isRecord(obj.delta)) return null;
  const field = obj.delta.type === "text_delta" ? "text" : obj.delta.type === "thinking_delta" ? "thinking" : null;
  if (!field || typeof obj.delta[field] !== "string" || Object.keys(obj.delta).length !== 2) return null;
  return {
    block: `${String(obj.index)}|${field}`,
    text: obj.delta[field] as string,
    set: (o, t) => ((o.delta as Record<string, unknown>)[field] = t),
  };
}

const SLOT: Record<SseDialect, (obj: Record<string, unknown>) => TextSlot | null> = {
  chat: chatSlot,
  responses: responsesSlot,
  anthropic: anthropicSlot,
};

type Parsed = { raw: string; eventLine: string; obj: Record<string, unknown>; slot: TextSlot };

/** One event (without its blank line) if it is a text delta: at most an `event:` line and one `data:` line. */
function parseTextEvent(raw: string, slotOf: (obj: Record<string, unknown>) => TextSlot | null): Parsed | null {
  let eventLine = "";
  let data: string | undefined;
  for (const line of raw.split("\n")) {
    if (line.startsWith("data:") && data === undefined) data = line.slice(line.startsWith("data: ") ? 6 : 5);
    else if (line.startsWith("event:") && !eventLine) eventLine = line;
    else return null;
  }
  if (data === undefined || data[0] !== "{") return null;
  let obj: unknown;
  try {
    obj = JSON.parse(data);
  } catch {
    return null;
  }
  if (!isRecord(obj)) return null;
  const slot = slotOf(obj);
  return slot ? { raw, eventLine, obj, slot } : null;
}

/**
 * Complete events (text ending in a blank line) with runs of text deltas of one block folded into one
 * event each. Exported for tests.
 */
export function mergeEvents(complete: string, dialect: SseDialect): string {
  const events = complete.split("\n\n");
  events.pop(); // the empty piece after the last blank line
  if (events.length < 2) return complete;
  const slotOf = SLOT[dialect];
  const out: string[] = [];
  let run: Parsed[] = [];
  const endRun = () => {
    if (run.length === 1) out.push(run[0].raw + "\n\n");
    else if (run.length > 1) {
      const [first] = run;
      first.slot.set(first.obj, run.map((e) => e.slot.text).join(""));
      out.push(`${first.eventLine ? first.eventLine + "\n" : ""}data: ${JSON.stringify(first.obj)}\n\n`);
    }
    run = [];
  };
  for (const raw of events) {
    const parsed = parseTextEvent(raw, slotOf);
    if (!parsed) {
      endRun();
      out.push(raw + "\n\n");
      continue;
    }
    if (run.length && (run[0].slot.block !== parsed.slot.block || run[0].eventLine !== parsed.eventLine)) endRun();
    run.push(parsed);
  }
  endRun();
  return out.join("");
}

const BLANK_LINE = Buffer.from("\n\n");

/** Whether `chunk` is exactly one whole event: its first blank line is its end. */
function isOneEvent(chunk: Uint8Array): boolean {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return bytes.indexOf(BLANK_LINE) === bytes.length - 2;
}

/**
 * The byte stream of an event stream, with the text deltas that arrived in one read merged. A read
 * that holds one whole event (an idle server's case) goes on as it came, without being decoded.
 */
export function sseMerger(dialect: SseDialect): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let passThrough = false;

  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (passThrough || (!pending && isOneEvent(chunk))) return controller.enqueue(chunk);
      pending += decoder.decode(chunk, { stream: true });
      if (pending.includes("\r")) {
        // CRLF line endings: not worth parsing here; everything from now on goes through untouched.
        passThrough = true;
        controller.enqueue(encoder.encode(pending));
        pending = "";
        return;
      }
      const end = pending.lastIndexOf("\n\n") + 2;
      if (end < 2) return;
      const complete = pending.slice(0, end);
      pending = pending.slice(end);
      controller.enqueue(encoder.encode(mergeEvents(complete, dialect)));
    },
    flush(controller) {
      pending += decoder.decode();
      if (pending) controller.enqueue(encoder.encode(pending)); // a last event without its blank line
    },
  });
}

/** A fetch whose event-stream answers pass through `sseMerger`; every other answer is untouched. */
export function mergingFetch(dialect: SseDialect, base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await (base ?? fetch)(input, init);
    if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    return new Response(response.body.pipeThrough(sseMerger(dialect)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
