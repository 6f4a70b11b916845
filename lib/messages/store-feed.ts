// The store's side of a turn's stream: the turn hands each chunk here as it passes it on to the
// browser, and the store (store-turn.ts) folds it into the answer at once, in the same turn of the
// event loop: no stream stage and no promise per chunk, and the store is never behind what the
// browser was sent (its block writes follow within their throttle window, block-writer.ts). Only a
// chunk whose fold is asynchronous (streaming tool input: its partial JSON is parsed) holds the turn
// until it is folded; chunks keep their order.
import type { UIMessageChunk } from "ai";

type TurnEnding = "finish" | "abort" | "error";

/** Folds one chunk into the stored answer; a promise while it cannot do so at once. */
export type StoreSink = (chunk: UIMessageChunk) => void | Promise<void>;

export type StoreFeed = {
  /** Hands a chunk to the store; a promise when the turn must wait for it to be folded. */
  write(chunk: UIMessageChunk): Promise<void> | undefined;
  /** The turn's stream ended. */
  close(): void;
  /** The turn's stream failed. */
  fail(reason: unknown): void;
  /** How the turn ended, as far as its chunks said (undefined: no ending chunk came). */
  readonly ending: TurnEnding | undefined;
  /**
   * For the store: folds every chunk with `sink` (those written before first); resolves once the
   * stream has ended and every chunk is folded, rejects when the stream or the sink fails.
   */
  consume(sink: StoreSink): Promise<void>;
};

export function storeFeed(): StoreFeed {
  let open = true;
  let ending: TurnEnding | undefined;
  let sink: StoreSink | undefined;
  /** Chunks waiting for the sink: written before the store consumed, or behind an asynchronous fold. */
  const queue: UIMessageChunk[] = [];
  let busy: Promise<void> | undefined;
  let closed = false;
  let settle!: { resolve: () => void; reject: (reason: unknown) => void };
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => {}); // the store may never consume (it failed before it could)

  const stop = (reason: unknown) => {
    open = false;
    queue.length = 0;
    settle.reject(reason);
  };
  /** Runs the sink on one chunk; a promise while it folds asynchronously. */
  const fold = (chunk: UIMessageChunk): Promise<void> | undefined => {
    let folded: void | Promise<void>;
    try {
      folded = sink!(chunk);
    } catch (err) {
      stop(err);
      return undefined;
    }
    if (!folded) return undefined;
    busy = folded.then(
      () => {
        busy = undefined;
        return drain();
      },
      (err: unknown) => {
        busy = undefined;
        stop(err);
      },
    );
    return busy;
  };
  /** Folds what waits, in order, until an asynchronous fold holds the rest back. */
  const drain = (): Promise<void> | undefined => {
    while (open && sink && !busy && queue.length) {
      const held = fold(queue.shift()!);
      if (held) return held;
    }
    if (open && closed && !busy && !queue.length) settle.resolve();
    return undefined;
  };

  return {
    write(chunk) {
      if (!open) return undefined;
      if (chunk.type === "finish") ending ??= "finish";
      else if (chunk.type === "abort") ending = "abort";
      else if (chunk.type === "error") ending = "error";
      if (!sink || busy || queue.length) {
        queue.push(chunk);
        return busy;
      }
      return fold(chunk);
    },
    close() {
      if (!open || closed) return;
      closed = true;
      drain();
    },
    fail(reason) {
      if (open) stop(reason);
    },
    get ending() {
      return ending;
    },
    consume(s) {
      sink = s;
      drain();
      return done;
    },
  };
}
