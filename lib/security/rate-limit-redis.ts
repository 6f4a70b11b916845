// The Redis connection of the rate limits: one per process and address, opened at the first use and
// kept open (reconnecting with backoff). Commands fail at once while it is down instead of queueing,
// so the limiters count in memory meanwhile (their insurance); that is said once per outage.
import type { createClient } from "redis";

const makeClient = (create: typeof createClient, url: string) =>
  create({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 5_000) },
  });
export type RedisClient = ReturnType<typeof makeClient>;

/** How long the first use waits for the first connection before counting in memory. */
const FIRST_CONNECT_MS = 1_000;

type Connection = { client: RedisClient; firstConnect: Promise<void>; warned: boolean };
const KEY = Symbol.for("parley.rateLimitRedis");
const holder = globalThis as { [KEY]?: Map<string, Promise<Connection>> };

function open(create: typeof createClient, url: string): Connection {
  const client = makeClient(create, url);
  const connection: Connection = { client, firstConnect: Promise.resolve(), warned: false };
  let settle: () => void = () => {};
  connection.firstConnect = new Promise<void>((resolve) => {
    settle = resolve;
    setTimeout(resolve, FIRST_CONNECT_MS).unref();
  });
  client.on("error", () => settle()); // reported once by `redisFor` while the client is not ready
  client.on("ready", () => {
    connection.warned = false;
    settle();
  });
  client.connect().catch(() => settle());
  return connection;
}

/**
 * The client for `url`, after its first connection attempt settled. When it is not connected, says
 * so once (until it connects again); the limiters then count in this process.
 */
export async function redisFor(url: string, name: string): Promise<RedisClient> {
  const connections = (holder[KEY] ??= new Map());
  let opening = connections.get(url);
  if (!opening) {
    opening = import("redis").then(({ createClient }) => open(createClient, url));
    connections.set(url, opening);
  }
  const connection = await opening;
  await connection.firstConnect;
  if (!connection.client.isReady && !connection.warned) {
    connection.warned = true;
    console.warn(`[rate-limit] ${name}: Redis unavailable (not connected to ${new URL(url).host}); counting in this process`);
  }
  return connection.client;
}
