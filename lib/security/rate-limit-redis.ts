// Rate-limit counts in Redis, shared by every app process that uses the same REDIS_URL. One
// connection per process and address, opened at the first hit. A hit is one round trip (INCR, the
// window's expiry set by the first hit only, and the time left); while Redis is unreachable commands
// fail at once instead of queueing, and the limiter counts in memory meanwhile.
import crypto from "node:crypto";
import type { Counter } from "./rate-limit";

type Client = {
  multi(): {
    incr(key: string): ReturnType<Client["multi"]>;
    pExpire(key: string, ms: number, mode?: "NX"): ReturnType<Client["multi"]>;
    pTTL(key: string): ReturnType<Client["multi"]>;
    exec(): Promise<unknown[]>;
  };
  del(key: string): Promise<unknown>;
};

const KEY = Symbol.for("parley.rateLimitRedis");
const holder = globalThis as { [KEY]?: Map<string, Promise<Client>> };

function client(url: string): Promise<Client> {
  const clients = (holder[KEY] ??= new Map());
  let c = clients.get(url);
  if (!c) {
    c = (async () => {
      const { createClient } = await import("redis");
      const redis = createClient({
        url,
        disableOfflineQueue: true,
        socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000) },
      });
      redis.on("error", () => {}); // reported by the limiter when a hit fails
      await redis.connect();
      return redis as unknown as Client;
    })();
    // A failed first connection is tried again at a later hit.
    c.catch(() => clients.delete(url));
    clients.set(url, c);
  }
  return c;
}

export function redisCounter(url: string): Counter {
  // Hashed: the keys hold emails and client addresses, which Redis need not keep in the clear.
  const prefixed = (key: string) => `parley:rate:${crypto.createHash("sha256").update(key).digest("base64url")}`;
  return {
    async incr(key, windowMs) {
      const redis = await client(url);
      const k = prefixed(key);
      const [count, , msLeft] = (await redis.multi().incr(k).pExpire(k, windowMs, "NX").pTTL(k).exec()) as [number, number, number];
      return { count: Number(count), msLeft: Number(msLeft) > 0 ? Number(msLeft) : windowMs };
    },
    async del(key) {
      const redis = await client(url);
      await redis.del(prefixed(key));
    },
  };
}
