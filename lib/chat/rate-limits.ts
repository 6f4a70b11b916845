// Limits on turns: per user per minute (PARLEY_CHAT_RATE_LIMIT, default 30; 429), and turns running
// at once in this process (PARLEY_MAX_ACTIVE_TURNS; 503). The second keeps an overloaded process
// from taking on more chats than it can stream and store in time: past it, a new turn waits in line
// briefly (PARLEY_TURN_QUEUE_MS) for a running one to end, and is otherwise refused with Retry-After
// before anything is read or written; the turns already running keep their pace.
import { Busy } from "../errors";
import { rateLimiter, type RateLimiter } from "../security/rate-limit";

const KEY = Symbol.for("parley.chatRateLimit");
const ACTIVE = Symbol.for("parley.activeTurns");
type Holder = { [KEY]?: RateLimiter; [ACTIVE]?: Slots };
const holder = globalThis as Holder;

export function chatRateLimit(): RateLimiter {
  return (holder[KEY] ??= rateLimiter({
    name: "chat",
    limit: Number(process.env.PARLEY_CHAT_RATE_LIMIT || 30),
    windowMs: 60_000,
    message: "You are sending messages too fast. Wait a moment and try again.",
  }));
}

/**
 * One process kept 10 chats streaming at 50 tokens/s on pace and 50 nearly so, on one core (npm run
 * bench); with 64 admitted out of 200 at once, starting them took seconds and the store fell behind.
 */
const DEFAULT_MAX_ACTIVE_TURNS = 32;
/** How long a turn waits for a running one to end before it is refused: a short burst is absorbed. */
const DEFAULT_TURN_QUEUE_MS = 5_000;

/** A whole number from the environment, at least `min`; otherwise the default. */
const envNumber = (name: string, fallback: number, min: number) => {
  const n = Number(process.env[name] || NaN);
  return Number.isInteger(n) && n >= min ? n : fallback;
};

type Waiter = { admit(): void };
type Slots = { count: number; queue: Waiter[] };

function slots(): Slots {
  return (holder[ACTIVE] ??= { count: 0, queue: [] });
}

function releaser(active: Slots): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // The slot goes straight to the turn that has waited longest, if any.
    const next = active.queue.shift();
    if (next) next.admit();
    else active.count--;
  };
}

/**
 * Counts a turn as running until the returned release is called (once is enough; more are ignored).
 * When PARLEY_MAX_ACTIVE_TURNS are running, the turn waits in line up to PARLEY_TURN_QUEUE_MS for one
 * to end, then is refused with 503 and Retry-After.
 */
async function takeTurnSlot(): Promise<() => void> {
  const active = slots();
  if (active.count < envNumber("PARLEY_MAX_ACTIVE_TURNS", DEFAULT_MAX_ACTIVE_TURNS, 1)) {
    active.count++;
    return releaser(active);
  }
  const waitMs = envNumber("PARLEY_TURN_QUEUE_MS", DEFAULT_TURN_QUEUE_MS, 0);
  await new Promise<void>((resolve, reject) => {
    const waiter: Waiter = {
      admit() {
        clearTimeout(timer);
        resolve();
      },
    };
    const timer = setTimeout(() => {
      active.queue.splice(active.queue.indexOf(waiter), 1);
      reject(Busy("The server is answering as many chats as it can right now. Try again in a few seconds.", 5));
    }, waitMs);
    active.queue.push(waiter);
  });
  return releaser(active);
}

/** Runs `fn` holding a turn slot, which `fn` hands on to the turn; if `fn` fails, the slot is released. */
export async function withTurnSlot<T>(fn: (slot: () => void) => Promise<T>): Promise<T> {
  const slot = await takeTurnSlot();
  try {
    return await fn(slot);
  } catch (err) {
    slot();
    throw err;
  }
}
