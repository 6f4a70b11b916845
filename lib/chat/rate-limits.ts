// Limits on turns: per user per minute (PARLEY_CHAT_RATE_LIMIT, default 30; 429), and turns running
// at once in this process (PARLEY_MAX_ACTIVE_TURNS; 503). The second keeps an overloaded process
// from taking on more chats than it can stream and store in time: past it, a new turn is refused
// with Retry-After before anything is read or written, and the turns already running keep their pace.
import { Busy } from "../errors";
import { rateLimiter, type RateLimiter } from "../security/rate-limit";

const KEY = Symbol.for("parley.chatRateLimit");
const ACTIVE = Symbol.for("parley.activeTurns");
type Holder = { [KEY]?: RateLimiter; [ACTIVE]?: { count: number } };
const holder = globalThis as Holder;

export function chatRateLimit(): RateLimiter {
  return (holder[KEY] ??= rateLimiter({
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

function maxActiveTurns(): number {
  return Number(process.env.PARLEY_MAX_ACTIVE_TURNS || DEFAULT_MAX_ACTIVE_TURNS);
}

/** Counts a turn as running until the returned release is called (once is enough; more are ignored). */
export function takeTurnSlot(): () => void {
  const active = (holder[ACTIVE] ??= { count: 0 });
  if (active.count >= maxActiveTurns()) {
    throw Busy("The server is answering as many chats as it can right now. Try again in a few seconds.", 5);
  }
  active.count++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    active.count--;
  };
}
