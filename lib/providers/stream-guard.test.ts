// The guarded provider stream: a delta is passed on at once, unchanged, and a provider that goes quiet
// times out.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { guardStreams, ProviderTimeoutError } from "./stream-guard";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const finish: LanguageModelV4StreamPart = { type: "finish", usage, finishReason: { unified: "stop", raw: "stop" } };
const nextTurn = () => new Promise((r) => setImmediate(r));

function modelOf(stream: ReadableStream<LanguageModelV4StreamPart>) {
  return new MockLanguageModelV4({ doStream: async () => ({ stream }) });
}

async function call(stream: ReadableStream<LanguageModelV4StreamPart>, idleMs = 60_000) {
  const guarded = guardStreams(modelOf(stream), idleMs);
  return (await guarded.doStream({ prompt: [] })).stream;
}

async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>) {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

/** A provider stream the test feeds by hand. */
function handFed() {
  let controller!: ReadableStreamDefaultController<LanguageModelV4StreamPart>;
  const stream = new ReadableStream<LanguageModelV4StreamPart>({ start: (c) => void (controller = c) });
  return { stream, controller };
}

describe("guarded provider stream", () => {
  it("passes each delta on at once, unchanged, before the event loop moves on", async () => {
    const upstream = handFed();
    const reader = (await call(upstream.stream)).getReader();
    upstream.controller.enqueue({ type: "text-delta", id: "t", delta: "first" });
    upstream.controller.enqueue({ type: "text-delta", id: "t", delta: "second" });
    const read: unknown[] = [];
    void reader.read().then((r) => read.push(r.value));
    void reader.read().then((r) => read.push(r.value));
    // Within the microtasks of this turn: a guard that held deltas back for a later turn of the event loop fails here.
    await nextTurn();
    expect(read).toEqual([
      { type: "text-delta", id: "t", delta: "first" },
      { type: "text-delta", id: "t", delta: "second" },
    ]);
    upstream.controller.close();
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
    expect(
      received
        .filter((p) => p.type === "text-delta")
        .map((p) => (p as { delta: string }).delta)
        .join(""),
    ).toBe(".".repeat(60));
  });
});
