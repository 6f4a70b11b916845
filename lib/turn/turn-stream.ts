// The one stage between the AI SDK's UI message stream of a turn and its two readers, the store and
// the browser. Everything the turn has to say travels here as parts. For each chunk it:
// - inserts the turn's notices right after the message starts (unavailable MCP servers, a model
//   without tools, …), and a `FellBack` notice when the fallback's first step says it took over;
// - drops `custom` chunks (provider bookkeeping such as Anthropic's message_start): they carry nothing
//   a person reads, and the browser and the store see the same parts;
// - makes every ending a part that is stored like any other, so a turn never ends in silence: an
//   upstream error becomes a `data-error` part, a stop a `data-notice`, an empty answer a notice,
//   a turn cut by its step limit says so (the limit counts every step of the answer, those before
//   its approvals too: answer-steps.ts), and one the server's stop ended is `interrupted`;
// - ends every tool call still open when the turn ends (stop, error, step limit) with an aborted
//   `tool-output-error` (tool-states.ts), so no card is left waiting or running; calls waiting for a
//   person at a normal finish stay waiting, but not at the step limit: the answer has no step left
//   to go on with after a decision;
// - keeps the answer within PARLEY_MAX_ANSWER_CHARS (answer-cap.ts);
// - on a chat's first message, tells the browser the chat's title as a transient `data-title` part:
//   the first words right after the start, and the model's title (titles.ts), asked for at the start
//   alongside the answer, once the answer is stored and finished normally, before `finish`;
// - hands the chunk to the store (store-feed.ts), which may hold the stream back so that the browser
//   never runs far ahead of what is stored;
// - passes it on to the browser as a server-sent event.
// The `finish` chunk is held until the store has finished: the browser hears "done" only for what is
// stored, and otherwise gets a visible `NotSaved` notice.
// One stage instead of one per job: every stage costs promises per chunk (npm run bench).
import type { UIMessageChunk } from "ai";
import type { AnswerCap } from "./answer-cap";
import { HANDED_OVER } from "../messages/handed-over";
import { STEP_LIMIT_CODE, stepLimitText } from "./answer-steps";
import type { NoticeData, ParleyDataParts, ParleyMetadata } from "../messages/message-types";
import type { StoreFeed } from "../messages/store-feed";
import type { StoredTurn } from "../messages/store-turn";
import { abortChunk, type AbortReason } from "../messages/tool-states";
import { parseTurnErrorText } from "./turn-errors";
import { sseEvent } from "../messages/sse-bytes";

type Chunk = UIMessageChunk<ParleyMetadata, ParleyDataParts>;

const CONTENT = new Set(["text-delta", "reasoning-delta", "tool-input-start", "tool-input-available", "file", "source-url", "source-document"]);

/** An open tool call as far as the stream has told. */
export type OpenCall = { toolCallId: string; state: string; approval?: { approved?: boolean } };

export type TurnStreamOptions = {
  /** Notices known before the turn streams. */
  notices: readonly NoticeData[];
  /** The most steps of one answer (PARLEY_STEP_LIMIT), and how many it took before this turn (after approvals). */
  stepLimit: number;
  stepsBefore?: number;
  store: StoreFeed;
  /** The store's outcome (store-turn.ts): the `finish` chunk waits for it. */
  stored: Promise<StoredTurn>;
  /** Calls already open when the stream starts (an answer continued after decisions). */
  open?: readonly OpenCall[];
  /** Why an abort is the server stopping (stop-turns.ts) rather than a person's Stop; undefined for a Stop. */
  interrupted?: () => "shutdown" | "handoff" | undefined;
  /** The most an answer may write (answer-cap.ts), applied to what this stage sends. */
  cap?: AnswerCap;
  /** A chat's first message: its first-words title, and how the model names it (from the question). */
  title?: { first: string; name: () => Promise<string | undefined> };
};

/**
 * The finish chunk with the answer's usage as stored: its tokens over all the turns that wrote it (a
 * continued answer's browser copy still holds the earlier totals, which this turn's usage alone would
 * mix with) and its cost, known once the store has priced it (lib/usage/usage-record.ts).
 */
function withStoredUsage(finish: Chunk, stored: Pick<StoredTurn, "cost" | "usage">): Chunk {
  if (finish.type !== "finish" || (stored.cost == null && !stored.usage)) return finish;
  const meta = finish.messageMetadata;
  const tokens = Object.fromEntries(Object.entries(stored.usage ?? {}).filter(([, v]) => v != null));
  return { ...finish, messageMetadata: { ...meta, usage: { ...meta?.usage, ...tokens, ...(stored.cost != null ? { cost: stored.cost } : {}) } } };
}
const notice = (code: string, message: string): Chunk => ({ type: "data-notice", data: { code, message } });
const titleChunk = (title: string): Chunk => ({ type: "data-title", data: { title }, transient: true });
const NOT_SAVED = "Parley could not save this answer (the database did not accept it). What you see here will be lost when you reload.";

export function turnStream({
  notices,
  stepLimit,
  stepsBefore = 0,
  store,
  stored,
  open: initiallyOpen = [],
  interrupted,
  cap,
  title,
}: TurnStreamOptions): TransformStream<Chunk, string> {
  let content = false;
  /** The model's title, asked for when the answer starts so that it is usually ready by its end. */
  let naming: Promise<string | undefined> | undefined;
  let steps = stepsBefore;
  let finish: Chunk | undefined;
  const open = new Map(initiallyOpen.map((c) => [c.toolCallId, c]));

  /** Ends the open calls for `reason` (all but those waiting for a person when `keepWaiting`). */
  const closeCalls = (out: Chunk[], reason: AbortReason, keepWaiting: boolean) => {
    for (const call of open.values()) {
      if (keepWaiting && call.state === "approval-requested") continue;
      out.push(abortChunk(call, reason));
    }
    open.clear();
  };

  return new TransformStream<Chunk, string>({
    transform(chunk, controller) {
      const out: Chunk[] = [];
      const type = chunk.type;
      if (type === "custom") return;
      if (CONTENT.has(type) || type.startsWith("data-")) content = true;
      if (type.startsWith("tool-")) track(open, chunk);
      else if (type === "start-step") {
        steps++;
      } else if (type === "message-metadata" && chunk.messageMetadata?.fellBack) {
        const { fellBack, ...rest } = chunk.messageMetadata;
        out.push({ type: "data-notice", data: fellBack }, { type: "message-metadata", messageMetadata: rest });
        return emit(out, controller);
      } else if (type === "error") {
        closeCalls(out, "failed", false);
        const err = parseTurnErrorText(chunk.errorText);
        out.push({ type: "data-error", data: { code: err.code, message: err.message } });
      } else if (type === "abort" && interrupted?.()) {
        closeCalls(out, "interrupted", false);
        out.push({ type: "message-metadata", messageMetadata: { status: "interrupted", ...(interrupted() === "handoff" ? { handedOver: HANDED_OVER } : {}) } });
      } else if (type === "abort") {
        closeCalls(out, "stopped", false);
        out.push(notice("Stopped", "Stopped."));
      } else if (type === "finish") {
        if (!content) out.push(notice("EmptyAnswer", "The model returned an empty answer."));
        // The limit was hit when the last allowed step still ended in tool calls (calls waiting for a person too).
        const limited = chunk.finishReason === "tool-calls" && steps >= stepLimit;
        closeCalls(out, limited ? "step-limit" : "failed", !limited);
        if (limited) out.push(notice(STEP_LIMIT_CODE, stepLimitText(stepLimit)));
        // Stored now; sent to the browser once the store has finished (flush).
        const held = emit(out, controller);
        finish = chunk;
        return store.write(chunk) ?? held;
      }
      out.push(chunk);
      if (type === "start") {
        for (const data of notices) out.push({ type: "data-notice", data });
        if (title) {
          out.push(titleChunk(title.first));
          naming = title.name().catch(() => undefined);
        }
      }
      return emit(out, controller);
    },
    async flush(controller) {
      store.close();
      const { saved, ...usage } = await stored.then(
        (s) => ({ saved: s.saved, cost: s.cost, usage: s.usage }),
        () => ({ saved: false, cost: undefined, usage: undefined }),
      );
      let text = "";
      if (!saved) text += sseEvent(notice("NotSaved", NOT_SAVED));
      const named = saved && finish?.type === "finish" ? await naming : undefined;
      if (named) text += sseEvent(titleChunk(named));
      if (finish) {
        const meta = finish.type === "finish" ? finish.messageMetadata : undefined;
        text += sseEvent(saved ? withStoredUsage(finish, usage) : { ...finish, messageMetadata: { ...meta, status: "error" } });
      }
      controller.enqueue(text + "data: [DONE]\n\n");
    },
    // @ts-expect-error `cancel` is in the Streams standard (and Node) but not yet in TypeScript's Transformer type
    cancel(reason: unknown) {
      store.fail(reason);
    },
  });

  /** Hands the chunks to the store and sends them on; a promise when the store holds the stream back. */
  function emit(out: Chunk[], controller: TransformStreamDefaultController<string>): Promise<void> | undefined {
    let text = "";
    let held: Promise<void> | undefined;
    for (const c of cap ? cap(out) : out) {
      held = store.write(c) ?? held;
      text += sseEvent(c);
    }
    controller.enqueue(text);
    return held;
  }
}

/** Follows a tool chunk: which calls are open, and in which state. */
function track(open: Map<string, OpenCall>, chunk: Chunk) {
  const id = (chunk as { toolCallId?: string }).toolCallId;
  if (!id) return;
  switch (chunk.type) {
    case "tool-input-start":
      open.set(id, { toolCallId: id, state: "input-streaming" });
      break;
    case "tool-input-available":
      open.set(id, { toolCallId: id, state: "input-available" });
      break;
    case "tool-approval-request":
      open.set(id, { toolCallId: id, state: "approval-requested" });
      break;
    case "tool-output-available":
      if (chunk.preliminary) open.set(id, { toolCallId: id, state: "output-available" });
      else open.delete(id);
      break;
    // An invalid call (unknown tool, bad input) ends with tool-input-error alone in AI SDK 7.
    case "tool-input-error":
    case "tool-output-error":
    case "tool-output-denied":
      open.delete(id);
      break;
  }
}
