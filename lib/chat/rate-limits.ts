// Per-user limit on turns (PARLEY_CHAT_RATE_LIMIT per minute, default 30).
import { rateLimiter, type RateLimiter } from "../security/rate-limit";

const KEY = Symbol.for("parley.chatRateLimit");
type Holder = { [KEY]?: RateLimiter };

export function chatRateLimit(): RateLimiter {
  const holder = globalThis as Holder;
  return (holder[KEY] ??= rateLimiter({
    limit: Number(process.env.PARLEY_CHAT_RATE_LIMIT || 30),
    windowMs: 60_000,
    message: "You are sending messages too fast. Wait a moment and try again.",
  }));
}
