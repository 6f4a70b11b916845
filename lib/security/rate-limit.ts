// Fixed-window rate limits: a key's window starts at its first hit and allows `limit` hits. Counted in
// this process's memory, or with REDIS_URL in Redis, so that several app processes (PARLEY_PROCESSES)
// count together instead of each allowing the whole limit. When Redis cannot be reached each process
// counts its own hits for a while (and says so once): limits still hold, per process, and a hit waits
// for Redis at most once per SHARED_RETRY_MS.
import { TooMany } from "../errors";
import { withTimeout } from "../with-timeout";
import { redisCounter } from "./rate-limit-redis";

export type RateLimiter = {
  /** Counts one hit for `key`; rejects with a 429 AppError with Retry-After when over the limit. */
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
};

/** Where hits are counted: the count including this hit, and the milliseconds left in its window. */
export type Counter = {
  incr(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
  del(key: string): Promise<void>;
};

export type RateLimitOptions = {
  /** Names the limit in a shared store (keys of different limits never meet). */
  name: string;
  limit: number;
  windowMs: number;
  message: string;
  /** The shared store's address; REDIS_URL when not given, read at the first hit. */
  redisUrl?: string;
};

function memoryCounter(): Counter {
  const windows = new Map<string, { start: number; count: number; windowMs: number }>();
  let lastSweep = Date.now();
  return {
    async incr(key, windowMs) {
      const now = Date.now();
      if (now - lastSweep > windowMs) {
        for (const [k, w] of windows) if (now - w.start >= w.windowMs) windows.delete(k);
        lastSweep = now;
      }
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0, windowMs };
        windows.set(key, w);
      }
      w.count++;
      return { count: w.count, msLeft: w.start + windowMs - now };
    },
    async del(key) {
      windows.delete(key);
    },
  };
}

/** How long a hit waits for the shared store before it counts in memory instead. */
const SHARED_TIMEOUT_MS = 1_000;
/** After the shared store failed, hits count in memory this long before it is tried again. */
const SHARED_RETRY_MS = 10_000;

export function rateLimiter(opts: RateLimitOptions): RateLimiter {
  const local = memoryCounter();
  let shared: Counter | undefined | null = null; // null: not chosen yet; undefined: memory only
  let warned = false;
  let sharedDownUntil = 0;

  const counter = (): Counter | undefined => {
    if (shared === null) {
      const url = opts.redisUrl ?? process.env.REDIS_URL?.trim();
      shared = url ? redisCounter(url) : undefined;
    }
    return shared;
  };
  const fallBack = (err: unknown) => {
    sharedDownUntil = Date.now() + SHARED_RETRY_MS;
    if (!warned) console.warn(`[rate-limit] ${opts.name}: Redis unavailable (${(err as Error).message}); counting in this process`);
    warned = true;
  };

  return {
    async hit(key) {
      const k = `${opts.name}:${key}`;
      let result: { count: number; msLeft: number } | undefined;
      const store = Date.now() >= sharedDownUntil ? counter() : undefined;
      if (store) {
        try {
          result = await withTimeout(store.incr(k, opts.windowMs), SHARED_TIMEOUT_MS);
          warned = false;
        } catch (err) {
          fallBack(err);
        }
      }
      result ??= await local.incr(k, opts.windowMs);
      if (result.count > opts.limit) throw TooMany(opts.message, Math.max(1, Math.ceil(result.msLeft / 1000)));
    },
    async reset(key) {
      const k = `${opts.name}:${key}`;
      await local.del(k);
      const store = counter();
      if (store) await withTimeout(store.del(k), SHARED_TIMEOUT_MS).catch(fallBack);
    },
  };
}
