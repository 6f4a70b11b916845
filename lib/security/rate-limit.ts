// Rate limits on rate-limiter-flexible. Counted in this process's memory, or with REDIS_URL in Redis,
// so that several app processes (PARLEY_PROCESSES) count together instead of each allowing the whole
// limit. While Redis is unreachable, or slower than a second, each process counts in its own memory
// (the limiter's insurance limiter): limits still hold, per process. Keys are hashed before they are
// stored: they hold emails and client addresses.
import crypto from "node:crypto";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from "rate-limiter-flexible";
import { config } from "../config";
import { TooMany } from "../errors";
import { redisFor } from "./rate-limit-redis";

export { RateLimiterRes };

/** How long an operation waits for Redis before it counts in memory instead. */
const REDIS_TIMEOUT_MS = 1_000;

export type CounterOptions = {
  /** Names the count in a shared store (keys of different counts never meet). */
  name: string;
  /** Points a key may consume per window. */
  points: number;
  /** The window in seconds, from a key's first point. */
  durationSec: number;
  /** The shared store's address; REDIS_URL when not given (read at the first use); "" for memory only. */
  redisUrl?: string;
};

/**
 * A count per key (rate-limiter-flexible's operations, with hashed keys). `consume` rejects with a
 * RateLimiterRes (its `msBeforeNext` says how long to wait) when the key has no points left.
 */
export type Counter = {
  consume(key: string, points?: number, options?: { customDuration?: number }): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  reward(key: string, points?: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
};

type Limiter = RateLimiterMemory | RLWrapperTimeouts;

const hashed = (key: string) => crypto.createHash("sha256").update(key).digest("base64url");

async function limiterFor(opts: CounterOptions): Promise<Limiter> {
  const shape = { points: opts.points, duration: opts.durationSec, keyPrefix: `parley:rate:${opts.name}` };
  const memory = new RateLimiterMemory(shape);
  const url = opts.redisUrl ?? config().REDIS_URL;
  if (!url) return memory;
  const redis = new RateLimiterRedis({
    ...shape,
    storeClient: await redisFor(url, opts.name),
    useRedisPackage: true,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
  return new RLWrapperTimeouts({ limiter: redis, timeoutMs: REDIS_TIMEOUT_MS, insuranceLimiter: memory });
}

export function counter(opts: CounterOptions): Counter {
  let limiter: Promise<Limiter> | undefined;
  const store = () =>
    (limiter ??= limiterFor(opts).catch((err) => {
      limiter = undefined;
      throw err;
    }));
  return {
    consume: async (key, points = 1, options = {}) => (await store()).consume(hashed(key), points, options),
    get: async (key) => (await store()).get(hashed(key)),
    reward: async (key, points = 1) => (await store()).reward(hashed(key), points),
    delete: async (key) => (await store()).delete(hashed(key)),
  };
}

/** Seconds to wait, for Retry-After: at least one. */
export const retryAfterSeconds = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

export type RateLimiter = {
  /** Counts one hit for `key`; rejects with a 429 AppError with Retry-After when over the limit. */
  hit(key: string): Promise<void>;
  reset(key: string): Promise<void>;
};

export type RateLimitOptions = {
  name: string;
  limit: number;
  windowMs: number;
  message: string;
  /** See CounterOptions.redisUrl. */
  redisUrl?: string;
};

/** A fixed-window limit: a key's window starts at its first hit and allows `limit` hits. */
export function rateLimiter(opts: RateLimitOptions): RateLimiter {
  const count = counter({ name: opts.name, points: opts.limit, durationSec: Math.max(1, Math.ceil(opts.windowMs / 1000)), redisUrl: opts.redisUrl });
  return {
    async hit(key) {
      try {
        await count.consume(key);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw TooMany(opts.message, retryAfterSeconds(err));
        throw err;
      }
    },
    async reset(key) {
      await count.delete(key);
    },
  };
}
