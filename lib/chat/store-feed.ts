// The store's side of a turn's stream: the turn writes each chunk here as it passes it on to the
// browser, and the store (store-turn.ts) reads them in order. The store may fall behind by at most
// `maxLag` chunks; past that, `write` returns a promise that holds the turn until the store catches
// up. So when the server is overloaded every chat slows down together, and what a browser has seen
// is always (nearly) stored, instead of the store lagging whole answers behind the screen.
import type { UIMessageChunk } from "ai";

type TurnEnding = "finish" | "abort" | "error";

export type StoreFeed = {
  readable: ReadableStream<UIMessageChunk>;
  /** Queues a chunk for the store; a promise when the store is `maxLag` chunks behind. */
  write(chunk: UIMessageChunk): Promise<void> | undefined;
  /** The turn's stream ended. */
  close(): void;
  /** The turn's stream failed. */
  fail(reason: unknown): void;
  /** How the turn ended, as far as its chunks said (undefined: no ending chunk came). */
  readonly ending: TurnEnding | undefined;
};

export function storeFeed(maxLag = 16): StoreFeed {
  let controller!: ReadableStreamDefaultController<UIMessageChunk>;
  let open = true;
  let ending: TurnEnding | undefined;
  let resume: (() => void) | undefined;
  const release = () => {
    resume?.();
    resume = undefined;
  };
  const readable = new ReadableStream<UIMessageChunk>(
    {
      start: (c) => void (controller = c),
      // Called whenever the store has read the queue below `maxLag` again.
      pull: release,
      cancel() {
        open = false;
        release();
      },
    },
    new CountQueuingStrategy({ highWaterMark: maxLag }),
  );
  return {
    readable,
    write(chunk) {
      if (!open) return undefined;
      if (chunk.type === "finish") ending ??= "finish";
      else if (chunk.type === "abort") ending = "abort";
      else if (chunk.type === "error") ending = "error";
      controller.enqueue(chunk);
      if ((controller.desiredSize ?? 1) > 0) return undefined;
      return new Promise<void>((resolve) => {
        const previous = resume;
        resume = () => {
          previous?.();
          resolve();
        };
      });
    },
    close() {
      if (!open) return;
      open = false;
      controller.close();
      release();
    },
    fail(reason) {
      if (!open) return;
      open = false;
      controller.error(reason);
      release();
    },
    get ending() {
      return ending;
    },
  };
}
