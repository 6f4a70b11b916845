// The one stage between the AI SDK's UI message stream of a turn and its two readers, the store and
// the browser. For each chunk it:
// - inserts the turn's notices right after the message starts (unavailable MCP servers, a model
//   without tools, …) and any that come up later (a fallback taking over) before the next chunk;
// - makes every ending a part that is stored like any other, so a turn never ends in silence: an
//   upstream error becomes a `data-error` part, a stop a `data-notice`, an empty answer a notice,
//   and a turn cut by its step limit says so;
// - keeps the answer within PARLEY_MAX_ANSWER_CHARS (answer-cap.ts);
// - hands the chunk to the store (store-feed.ts), which may hold the stream back so that the browser
//   never runs far ahead of what is stored;
// - passes it on to the browser as a server-sent event.
// One stage instead of one per job: every stage costs promises per chunk (npm run bench).
import type { UIMessageChunk } from "ai";
import type { AnswerCap } from "./answer-cap";
import type { ErrorData, NoticeData, ParleyMetadata } from "./parts";
import type { StoreFeed } from "./store-feed";
import type { TurnError } from "./turn-errors";

type Chunk = UIMessageChunk<ParleyMetadata, { error: ErrorData; notice: NoticeData }>;

const CONTENT = new Set(["text-delta", "reasoning-delta", "tool-input-start", "tool-input-available", "file", "source-url", "source-document"]);

export type TurnStreamOptions = {
  /** Notices to show; the turn may add more while it runs (they go out before the next chunk). */
  notices: NoticeData[];
  /** The classified error of the turn, once the AI SDK reported one. */
  lastError: () => TurnError | undefined;
  stepLimit: number;
  store: StoreFeed;
  /** The most an answer may write (answer-cap.ts), applied to what this stage sends. */
  cap?: AnswerCap;
};

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;

export function turnStream({ notices, lastError, stepLimit, store, cap }: TurnStreamOptions): TransformStream<Chunk, string> {
  let started = false;
  let content = false;
  let steps = 0;
  let awaitingApproval = false;

  return new TransformStream<Chunk, string>({
    transform(chunk, controller) {
      const out: Chunk[] = [];
      if (started && notices.length) for (const data of notices.splice(0)) out.push({ type: "data-notice", data });

      if (CONTENT.has(chunk.type) || chunk.type.startsWith("data-")) content = true;
      if (chunk.type === "start-step") {
        steps++;
        awaitingApproval = false;
      } else if (chunk.type === "tool-approval-request") {
        awaitingApproval = true;
      } else if (chunk.type === "error") {
        const err = lastError() ?? { code: "Internal", message: chunk.errorText };
        out.push({ type: "data-error", data: { code: err.code, message: err.message } });
      } else if (chunk.type === "abort") {
        out.push({ type: "data-notice", data: { code: "Stopped", message: "Stopped." } });
      } else if (chunk.type === "finish") {
        if (!content) out.push({ type: "data-notice", data: { code: "EmptyAnswer", message: "The model returned an empty answer." } });
        // The limit was hit when the last allowed step still ended in tool calls and none of them waits for a person.
        if (chunk.finishReason === "tool-calls" && steps >= stepLimit && !awaitingApproval) {
          out.push({ type: "data-notice", data: { code: "StepLimit", message: `Step limit reached: the model used all ${stepLimit} steps of this answer. Send a message to let it continue.` } });
        }
      }
      out.push(chunk);
      if (chunk.type === "start") {
        started = true;
        for (const data of notices.splice(0)) out.push({ type: "data-notice", data });
      }

      let text = "";
      let held: Promise<void> | undefined;
      for (const c of cap ? cap(out) : out) {
        held = store.write(c) ?? held;
        text += sse(c);
      }
      controller.enqueue(text);
      return held;
    },
    flush(controller) {
      let text = "";
      for (const data of notices.splice(0)) {
        const c: Chunk = { type: "data-notice", data };
        store.write(c);
        text += sse(c);
      }
      store.close();
      controller.enqueue(text + "data: [DONE]\n\n");
    },
    // @ts-expect-error `cancel` is in the Streams standard (and Node) but not yet in TypeScript's Transformer type
    cancel(reason: unknown) {
      store.fail(reason);
    },
  });
}
