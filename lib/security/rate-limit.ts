// Fixed-window rate limits kept in process memory (one app process; with several, each limits its
// own share). A refused call learns how long to wait.
import { TooMany } from "../errors";

type Window = { start: number; count: number };

export type RateLimiter = {
  /** Counts one hit for `key`; throws a 429 AppError with Retry-After when over the limit. */
  hit(key: string): void;
  reset(key: string): void;
};

export function rateLimiter(opts: { limit: number; windowMs: number; message: string }): RateLimiter {
  const windows = new Map<string, Window>();
  let lastSweep = Date.now();
  return {
    hit(key) {
      const now = Date.now();
      if (now - lastSweep > opts.windowMs) {
        for (const [k, w] of windows) if (now - w.start >= opts.windowMs) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || now - w.start >= opts.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      if (w.count > opts.limit) {
        throw TooMany(opts.message, Math.max(1, Math.ceil((w.start + opts.windowMs - now) / 1000)));
      }
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
