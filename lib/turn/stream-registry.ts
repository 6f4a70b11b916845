// Live turns: their resumable streams and their stop signals. With REDIS_URL the streams and stop
// signals go through Redis (`resumable-stream`), so any app instance can resume or stop a turn that
// another instance runs; without it an in-process publisher/subscriber serves one instance. An
// instance that stops hands its running answers over through Redis (stop-turns.ts): another
// instance continues them. A turn records its own stream (`record`): its chunks are kept for whoever
// resumes, and sent on only while someone follows, with no stream stage of its own per chunk.
import { EventEmitter } from "node:events";
import { config } from "../config";
import { processOnce } from "../process-once";
import { createResumableStreamContext, type Publisher, type ResumableStreamContext, type Subscriber } from "resumable-stream/generic";
import type { LiveRecord } from "../messages/sse-bytes";
import type { StopReason } from "../messages/store-turn";

const STOP_CHANNEL = "parley:stop";
const STREAM_PREFIX = "parley:stream";
/** resumable-stream's own key prefix, end-of-stream message and sentinel (its runtime.js): readers use the library. */
const RS = `${STREAM_PREFIX}:rs`;
const RS_DONE_MESSAGE = "\n\n\nDONE_SENTINEL_hasdfasudfyge374%$%^$EDSATRTYFtydryrte\n";
const RS_DONE = "DONE";
const RS_TTL = { EX: 24 * 60 * 60 };
const HANDOFF_CHANNEL = "parley:handoff";

/** An answer an instance that stopped left interrupted, for another instance to continue. */
export type Handoff = { chatId: string; messageId: string };

/** A Redis-like publisher and subscriber inside this process (key/value with expiry, and channels). */
export class LocalPubSub implements Publisher, Subscriber {
  private values = new Map<string, { value: string; expiresAt: number }>();
  private channels = new EventEmitter().setMaxListeners(0);

  async connect() {}
  async publish(channel: string, message: string) {
    const n = this.channels.listenerCount(channel);
    queueMicrotask(() => this.channels.emit(channel, message));
    return n;
  }
  async subscribe(channel: string, callback: (message: string) => void) {
    this.channels.on(channel, callback);
  }
  async unsubscribe(channel: string) {
    this.channels.removeAllListeners(channel);
  }
  async set(key: string, value: string, options?: { EX?: number }) {
    this.values.set(key, { value, expiresAt: options?.EX ? Date.now() + options.EX * 1000 : Infinity });
    return "OK";
  }
  async get(key: string) {
    const entry = this.values.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.values.delete(key);
      return null;
    }
    return entry.value;
  }
  async incr(key: string) {
    const current = Number((await this.get(key)) ?? 0);
    if (Number.isNaN(current)) throw new Error("ERR value is not an integer");
    const entry = this.values.get(key);
    this.values.set(key, { value: String(current + 1), expiresAt: entry?.expiresAt ?? Infinity });
    return current + 1;
  }
}

/**
 * A turn running in this process: how to stop it, when it has ended (stored, chat and slot free), and its answer.
 */
export type LocalTurn = { abort(reason?: StopReason): void; ended: Promise<unknown>; chatId: string; messageId: string };

export type Registry = {
  /** Resumes streams (readers); a turn's own stream is recorded with `record`. */
  streams: ResumableStreamContext;
  /** Starts recording a turn's stream under its stream id. */
  record(streamId: string): Promise<LiveRecord>;
  /** Tells every instance to stop the turn of this chat. */
  publishStop(chatId: string): Promise<void>;
  /** Turns running in this process, by chat. */
  local: Map<string, LocalTurn>;
  kind: "memory" | "redis";
  /** Offers an interrupted answer to the other instances (none without Redis). */
  publishHandoff(chatId: string, messageId: string): Promise<void>;
  /** Called with each answer another instance hands over. */
  onHandoff(take: (handoff: Handoff) => void): void;
  close(): Promise<void>;
};

/** A new registry (one per process; tests build a second one to act as another instance). */
export async function buildRegistry(redisUrl = config().REDIS_URL): Promise<Registry> {
  const local = new Map<string, LocalTurn>();
  /** The streams this process records and has not ended yet. */
  const recording = new Set<LiveRecord>();
  // abort() without a reason: the AI SDK recognises the AbortError and ends the stream with `abort`.
  const onStop = (chatId: string) => local.get(chatId)?.abort();
  let take: ((handoff: Handoff) => void) | undefined;
  const onHandoff = (message: string) => {
    try {
      take?.(JSON.parse(message) as Handoff);
    } catch {
      /* not a handoff */
    }
  };
  const url = redisUrl;
  if (url) {
    const { createClient } = await import("redis");
    const publisher = createClient({ url });
    const subscriber = publisher.duplicate();
    for (const c of [publisher, subscriber]) c.on("error", (err) => console.error("[redis]", err.message));
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(STOP_CHANNEL, onStop);
    await subscriber.subscribe(HANDOFF_CHANNEL, onHandoff);
    const pub = publisher as unknown as Publisher;
    const sub = subscriber as unknown as Subscriber;
    return {
      kind: "redis",
      local,
      streams: createResumableStreamContext({ waitUntil: null, publisher: pub, subscriber: sub, keyPrefix: STREAM_PREFIX }),
      record: (streamId) => recordStream(pub, sub, streamId, recording),
      async publishStop(chatId) {
        await publisher.publish(STOP_CHANNEL, chatId);
      },
      async publishHandoff(chatId, messageId) {
        await publisher.publish(HANDOFF_CHANNEL, JSON.stringify({ chatId, messageId }));
      },
      onHandoff(fn) {
        take = fn;
      },
      async close() {
        // Readers on other instances hear the end of every stream still recorded here (a stopping
        // instance's handed-over answers): else they would wait for it until their watchdog gave up.
        await Promise.all([...recording].map((r) => r.end()));
        await Promise.all([publisher.quit(), subscriber.quit()]);
      },
    };
  }
  const pubsub = new LocalPubSub();
  await pubsub.subscribe(STOP_CHANNEL, onStop);
  return {
    kind: "memory",
    local,
    streams: createResumableStreamContext({ waitUntil: null, publisher: pubsub, subscriber: pubsub, keyPrefix: STREAM_PREFIX }),
    record: (streamId) => recordStream(pubsub, pubsub, streamId, recording),
    async publishStop(chatId) {
      await pubsub.publish(STOP_CHANNEL, chatId);
    },
    // One instance: nobody to hand over to.
    async publishHandoff() {},
    onHandoff() {},
    async close() {},
  };
}

/**
 * The producer's side of resumable-stream's protocol (what its `createNewResumableStream` does), without
 * a stream stage: a reader asks on the stream's request channel and gets everything so far on its own
 * channel, then each chunk as it is appended, then the end message. The library's producer is a stream
 * stage of its own, with an async callback and a promise per chunk even when nobody resumes.
 */
async function recordStream(publisher: Publisher, subscriber: Subscriber, streamId: string, recording: Set<LiveRecord>): Promise<LiveRecord> {
  const chunks: string[] = [];
  const readers: string[] = [];
  let ended = false;
  const send = (listenerId: string, text: string) => void publisher.publish(`${RS}:chunk:${listenerId}`, text).catch(() => {});
  const requests = `${RS}:request:${streamId}`;
  // Listening before the sentinel says the stream exists, so no reader's request is lost.
  await subscriber.subscribe(requests, (message: string) => {
    let listenerId: string;
    let skip = 0;
    try {
      ({ listenerId, skipCharacters: skip = 0 } = JSON.parse(message) as { listenerId: string; skipCharacters?: number });
    } catch {
      return;
    }
    readers.push(listenerId);
    send(listenerId, chunks.join("").slice(skip));
    if (ended) send(listenerId, RS_DONE_MESSAGE);
  });
  await publisher.set(`${RS}:sentinel:${streamId}`, "1", RS_TTL);
  const record: LiveRecord = {
    append(text) {
      chunks.push(text);
      for (const id of readers) send(id, text);
    },
    async end() {
      if (ended) return;
      ended = true;
      recording.delete(record);
      await Promise.all([
        publisher.set(`${RS}:sentinel:${streamId}`, RS_DONE, RS_TTL),
        subscriber.unsubscribe(requests),
        ...readers.map((id) => publisher.publish(`${RS}:chunk:${id}`, RS_DONE_MESSAGE)),
      ]).catch((err: unknown) => console.error(`[stream] ${streamId}: could not mark the stream ended`, err));
    },
  };
  recording.add(record);
  return record;
}

const registry = processOnce("parley.streamRegistry", () => buildRegistry());

export function streamRegistry(): Promise<Registry> {
  return registry.get();
}

/** The registry if this process made one (nothing is made). */
export function currentStreamRegistry(): Promise<Registry> | undefined {
  return registry.current();
}
