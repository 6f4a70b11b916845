// Stream transforms of a turn's UI message chunks, so that a turn never ends in silence and every
// ending is a part that is stored like any other: an upstream error becomes a `data-error` part, a
// stop a `data-notice` part, and an empty answer a notice too.
import type { UIMessageChunk } from "ai";
import type { ErrorData, NoticeData, ParleyMetadata } from "./parts";
import type { TurnError } from "./turn-errors";

type Chunk = UIMessageChunk<ParleyMetadata, { error: ErrorData; notice: NoticeData }>;

const CONTENT = new Set(["text-delta", "reasoning-delta", "tool-input-start", "tool-input-available", "file", "source-url", "source-document"]);

export function endingParts(lastError: () => TurnError | undefined): TransformStream<Chunk, Chunk> {
  let content = false;
  return new TransformStream<Chunk, Chunk>({
    transform(chunk, controller) {
      if (CONTENT.has(chunk.type) || chunk.type.startsWith("data-")) content = true;
      if (chunk.type === "error") {
        const err = lastError() ?? { code: "Internal", message: chunk.errorText };
        controller.enqueue({ type: "data-error", data: { code: err.code, message: err.message } });
      } else if (chunk.type === "abort") {
        controller.enqueue({ type: "data-notice", data: { code: "Stopped", message: "Stopped." } });
      } else if (chunk.type === "finish" && !content) {
        controller.enqueue({ type: "data-notice", data: { code: "EmptyAnswer", message: "The model returned an empty answer." } });
      }
      controller.enqueue(chunk);
    },
  });
}

/** Inserts notices (e.g. MCP servers whose tools are unavailable) right after the message starts. */
export function noticesAfterStart(notices: NoticeData[]): TransformStream<Chunk, Chunk> {
  const pending = [...notices];
  return new TransformStream<Chunk, Chunk>({
    transform(chunk, controller) {
      controller.enqueue(chunk);
      if (chunk.type === "start" && pending.length) for (const data of pending.splice(0)) controller.enqueue({ type: "data-notice", data });
    },
    flush(controller) {
      for (const data of pending.splice(0)) controller.enqueue({ type: "data-notice", data });
    },
  });
}

/**
 * A turn stopped by its step limit ends with a notice saying so. The limit was hit when the last
 * allowed step still ended in tool calls and none of them waits for a person.
 */
export function stepLimitNotice(limit: number): TransformStream<Chunk, Chunk> {
  let steps = 0;
  let awaitingApproval = false;
  return new TransformStream<Chunk, Chunk>({
    transform(chunk, controller) {
      if (chunk.type === "start-step") {
        steps++;
        awaitingApproval = false;
      }
      if (chunk.type === "tool-approval-request") awaitingApproval = true;
      if (chunk.type === "finish" && chunk.finishReason === "tool-calls" && steps >= limit && !awaitingApproval) {
        controller.enqueue({ type: "data-notice", data: { code: "StepLimit", message: `Step limit reached: the model used all ${limit} steps of this answer. Send a message to let it continue.` } });
      }
      controller.enqueue(chunk);
    },
  });
}
