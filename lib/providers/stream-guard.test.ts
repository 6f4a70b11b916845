// The guarded provider stream: deltas that arrive together are merged without changing the text, a
// delta that arrives alone is passed on at once, and a provider that goes quiet still times out.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { guardStreams, ProviderTimeoutError } from "./stream-guard";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const finish: LanguageModelV3StreamPart = { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } };
const nextTurn = () => new Promise((r) => setImmediate(r));

function modelOf(stream: ReadableStream<LanguageModelV3StreamPart>) {
  return new MockLanguageModelV3({ doStream: async () => ({ stream }) });
}

async function call(stream: ReadableStream<LanguageModelV3StreamPart>, idleMs = 60_000) {
  const guarded = guardStreams(modelOf(stream), idleMs);
  return (await guarded.doStream({ prompt: [] })).stream;
}

async function readAll(stream: ReadableStream<LanguageModelV3StreamPart>) {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

/** A provider stream the test feeds by hand. */
function handFed() {
  let controller!: ReadableStreamDefaultController<LanguageModelV3StreamPart>;
  const stream = new ReadableStream<LanguageModelV3StreamPart>({ start: (c) => void (controller = c) });
  return { stream, controller };
}

describe("guarded provider stream", () => {
  it("merges deltas of one block that arrive together, keeping the text and the order of parts", async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `);
    const parts = await readAll(
      await call(
        convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: "stream-start", warnings: [] },
          { type: "text-start", id: "t" },
          ...words.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
          { type: "text-end", id: "t" },
          finish,
        ]),
      ),
    );
    expect(parts.map((p) => p.type)).toEqual(["stream-start", "text-start", "text-delta", "text-end", "finish"]);
    expect(parts.find((p) => p.type === "text-delta")).toMatchObject({ delta: words.join("") });
  });

  it("never merges across blocks, kinds or provider metadata", async () => {
    const a = { openai: { itemId: "a" } };
    const b = { openai: { itemId: "b" } };
    const parts = await readAll(
      await call(
        convertArrayToReadableStream<LanguageModelV3StreamPart>([
          { type: "reasoning-delta", id: "r", delta: "think ", providerMetadata: a },
          { type: "reasoning-delta", id: "r", delta: "more ", providerMetadata: a },
          { type: "reasoning-delta", id: "r", delta: "other item", providerMetadata: b },
          { type: "text-delta", id: "t1", delta: "one" },
          { type: "text-delta", id: "t2", delta: "two" },
          { type: "tool-input-delta", id: "c", delta: '{"a":' },
          { type: "tool-input-delta", id: "c", delta: "1}" },
          finish,
        ]),
      ),
    );
    expect(parts.filter((p) => p.type !== "finish")).toEqual([
      { type: "reasoning-delta", id: "r", delta: "think more ", providerMetadata: a },
      { type: "reasoning-delta", id: "r", delta: "other item", providerMetadata: b },
      { type: "text-delta", id: "t1", delta: "one" },
      { type: "text-delta", id: "t2", delta: "two" },
      { type: "tool-input-delta", id: "c", delta: '{"a":1}' },
    ]);
  });

  it("passes a delta that arrives alone on in the same turn of the event loop", async () => {
    const upstream = handFed();
    const reader = (await call(upstream.stream)).getReader();
    upstream.controller.enqueue({ type: "text-delta", id: "t", delta: "first" });
    let first: unknown;
    void reader.read().then((r) => (first = r));
    await nextTurn();
    await nextTurn();
    // Nothing else arrived and nothing ended, yet the delta is through.
    expect(first).toEqual({ done: false, value: { type: "text-delta", id: "t", delta: "first" } });
    upstream.controller.enqueue({ type: "text-delta", id: "t", delta: "second" });
    upstream.controller.close();
    expect((await reader.read()).value).toEqual({ type: "text-delta", id: "t", delta: "second" });
    expect((await reader.read()).done).toBe(true);
  });

  it("fails a provider that goes quiet after it started, and not one that keeps sending", async () => {
    const quiet = handFed();
    const reader = (await call(quiet.stream, 250)).getReader();
    quiet.controller.enqueue({ type: "text-delta", id: "t", delta: "hello" });
    expect((await reader.read()).value).toMatchObject({ delta: "hello" });
    const startedWaiting = Date.now();
    await expect(reader.read()).rejects.toBeInstanceOf(ProviderTimeoutError);
    expect(Date.now() - startedWaiting).toBeGreaterThanOrEqual(200);

    // Chunks every 10 ms for well over the idle window: each one restarts it.
    const steady = handFed();
    const parts = readAll(await call(steady.stream, 250));
    for (let i = 0; i < 60; i++) {
      steady.controller.enqueue({ type: "text-delta", id: "t", delta: "." });
      await new Promise((r) => setTimeout(r, 10));
    }
    steady.controller.enqueue(finish);
    steady.controller.close();
    const received = await parts;
    expect(received.filter((p) => p.type === "text-delta").map((p) => (p as { delta: string }).delta).join("")).toBe(".".repeat(60));
  });
});
