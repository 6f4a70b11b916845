// Turns running at once in this process: at most PARLEY_MAX_ACTIVE_TURNS (a p-queue's concurrency).
// Past it a new turn waits in line, first come first served, up to PARLEY_TURN_QUEUE_MS for a running
// one to end, and is then refused with 503 and Retry-After before anything is read or written; the
// turns already running keep their pace. One process kept 10 chats streaming at 50 tokens/s on pace
// and 50 nearly so, on one core (npm run bench); with 64 admitted out of 200 at once, starting them
// took seconds and the store fell behind.
import PQueue from "p-queue";
import { config } from "../config";
import { Busy } from "../errors";

/** A running turn's hold on a slot; `release` gives it back (once is enough; more are ignored). */
type TurnSlot = { release(): void };

export type TurnSlots = {
  /** Waits for a slot (in line, up to the queue time), or rejects with 503. */
  take(): Promise<TurnSlot>;
  /** Turns running and waiting now. */
  readonly running: number;
  readonly waiting: number;
  /** The server is stopping: every take from now on is refused (503). */
  close(): void;
  readonly closed: boolean;
};

type SlotLimits = { max: number; queueMs: number };

const fromConfig = (): SlotLimits => ({ max: config().PARLEY_MAX_ACTIVE_TURNS, queueMs: config().PARLEY_TURN_QUEUE_MS });

/** Slots with these limits (read at each take, so a changed setting applies to the next turn). */
function turnSlots(limits: () => SlotLimits = fromConfig): TurnSlots {
  const queue = new PQueue({ concurrency: limits().max });
  let closed = false;
  const restarting = () => Busy("The server is restarting. Try again in a few seconds.", 5);
  return {
    async take() {
      if (closed) throw restarting();
      const { max, queueMs } = limits();
      if (queue.concurrency !== max) queue.concurrency = max;
      // The line is left when the wait is over; once the turn runs, nothing aborts it (the signal
      // would free its slot while it still runs).
      const waited = new AbortController();
      const timer = setTimeout(() => waited.abort(), queueMs);
      let release!: () => void;
      const admitted = new Promise<void>((resolve, reject) => {
        queue
          .add(
            () => {
              clearTimeout(timer);
              resolve();
              return new Promise<void>((done) => (release = done));
            },
            { signal: waited.signal },
          )
          .catch(() => reject(Busy("The server is answering as many chats as it can right now. Try again in a few seconds.", 5)));
      });
      await admitted;
      if (closed) {
        release();
        throw restarting();
      }
      return { release: () => release() };
    },
    get running() {
      return queue.pending;
    },
    get waiting() {
      return queue.size;
    },
    close() {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}

const KEY = Symbol.for("parley.turnSlots");
const holder = globalThis as { [KEY]?: TurnSlots };

/** This process's turn slots. */
export function processTurnSlots(): TurnSlots {
  return (holder[KEY] ??= turnSlots());
}
