// Merges a provider's text-delta events that arrive together, before the provider's parser sees them.
// A model streams one small event per token; on a busy server several of a chat's events wait in one
// socket read, and each would go through the whole per-event path (decoding, SSE parsing, JSON, the
// provider's schema check and transform, every later stage). Here consecutive events that only add
// text to the same block are folded into one event with the joined text, so that path runs once per
// read instead of once per token: the work per chat falls as the load rises. Anything else (a role, a
// tool call, a finish, usage, ids, comments, CRLF streams) passes byte for byte.
// Events also wait for each other in time: a stream sends at most once per frame
// (PARLEY_STREAM_FRAME_MS, 16 ms: one screen refresh), widened while this process reads many streams
// (`holdMs`). What arrives after a quiet frame goes on at once, so the first words are never held; what
// follows within the frame goes with the frame's end, merged; the stream's end sends what waits at once.
import { config } from "../config";

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

/** Whether whole events `text` hold some text (frames start after the first; a role often comes with ""). */
function carriesText(text: string, dialect: SseDialect): boolean {
  return text.split("\n\n").some((raw) => raw && !!parseTextEvent(raw, SLOT[dialect])?.slot.text);
}

const BLANK_LINE = Buffer.from("\n\n");
/** Decodes a whole chunk at once (no state): the first-text check of an event that goes out as it came. */
const utf8 = new TextDecoder();

/** Whether `chunk` is exactly one whole event: its first blank line is its end. */
function isOneEvent(chunk: Uint8Array): boolean {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return bytes.indexOf(BLANK_LINE) === bytes.length - 2;
}

/** The longest a stream's events wait for each other, however many streams this process reads. */
const MAX_HOLD_MS = 100;
/** How much each stream this process reads widens the frame: 50 streams, 40 ms; 100, 80 ms. */
const HOLD_PER_STREAM_MS = 0.8;

/**
 * How long a stream's events may wait for each other: one frame (`frameMs`), widened as more streams are
 * read at once, up to MAX_HOLD_MS. `frameMs` 0 sends every read at once.
 */
export function holdMs(frameMs: number, open: number): number {
  return frameMs <= 0 ? 0 : Math.min(MAX_HOLD_MS, Math.max(frameMs, open * HOLD_PER_STREAM_MS));
}

/** The streams this process reads: each merger and when it last had a chunk. */
const reading = new Map<object, number>();
let counted = { at: -Infinity, open: 0 };

/** Streams that had a chunk in the last 2 s (counted at most every 250 ms; forgotten after 30 s quiet). */
function openStreams(now: number): number {
  if (now - counted.at < 250) return counted.open;
  let open = 0;
  for (const [stream, at] of reading) {
    if (now - at > 30_000) reading.delete(stream);
    else if (now - at < 2_000) open++;
  }
  counted = { at: now, open };
  return open;
}

/**
 * The byte stream of an event stream, with the text deltas that wait together merged: those of one read,
 * and those that arrive within one frame of the last send (`frameMs`; see the header). A read that holds
 * one whole event after a quiet frame goes on as it came, without being decoded.
 */
export function sseMerger(dialect: SseDialect, frameMs = 0): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const self = {};
  let pending = "";
  let passThrough = false;
  let sentAt = -Infinity;
  /** Frames start once the first text went out: the first words (after a role or ids) are never held. */
  let textSent = false;
  let timer: NodeJS.Timeout | undefined;
  let out!: TransformStreamDefaultController<Uint8Array>;
  /** Notes text that went out: the frames start with the first words (only when there are frames). */
  const noteSent = (text: () => string) => {
    if (frameMs > 0 && !textSent) textSent = carriesText(text(), dialect);
  };

  /** Sends the whole events that wait, merged; at the end, also what follows the last blank line. */
  const send = (end = false) => {
    clearTimeout(timer);
    timer = undefined;
    const cut = pending.lastIndexOf("\n\n") + 2;
    let text = cut >= 2 ? mergeEvents(pending.slice(0, cut), dialect) : "";
    if (cut >= 2) pending = pending.slice(cut);
    if (end) [text, pending] = [text + pending, ""];
    if (!text) return;
    sentAt = Date.now();
    noteSent(() => text);
    try {
      out.enqueue(encoder.encode(text));
    } catch {
      // The reader went away while the frame ran: nobody is left to send to.
    }
  };
  const stop = () => {
    clearTimeout(timer);
    reading.delete(self);
  };

  return new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      out = controller;
    },
    transform(chunk, controller) {
      if (passThrough) return controller.enqueue(chunk);
      const now = Date.now();
      reading.set(self, now);
      const wait = textSent ? sentAt + holdMs(frameMs, openStreams(now)) - now : 0;
      if (wait <= 0 && !pending && isOneEvent(chunk)) {
        sentAt = now;
        noteSent(() => utf8.decode(chunk));
        return controller.enqueue(chunk);
      }
      pending += decoder.decode(chunk, { stream: true });
      if (pending.includes("\r")) {
        // CRLF line endings: not worth parsing here; everything from now on goes through untouched.
        passThrough = true;
        clearTimeout(timer);
        controller.enqueue(encoder.encode(pending));
        pending = "";
        return;
      }
      if (wait <= 0) send();
      else timer ??= setTimeout(send, wait);
    },
    flush() {
      stop();
      pending += decoder.decode();
      send(true); // a last event may lack its blank line
    },
    // @ts-expect-error `cancel` is in the Streams standard (and Node) but not yet in TypeScript's Transformer type
    cancel() {
      stop();
    },
  });
}

/** A fetch whose event-stream answers pass through `sseMerger`; every other answer is untouched. */
export function mergingFetch(dialect: SseDialect, base?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await (base ?? fetch)(input, init);
    if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    return new Response(response.body.pipeThrough(sseMerger(dialect, config().PARLEY_STREAM_FRAME_MS)), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
