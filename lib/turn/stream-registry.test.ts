// Resume and stop across app instances through Redis (the machine's Redis, when REDIS_URL or
// TEST_REDIS_URL is set), and in-process by default.
import type { LLMock } from "@copilotkit/aimock";
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DRIVERS, startTestApp } from "@/test/support/test-app";
import { resumeTurn } from "./turn-follow";
import { buildRegistry, LocalPubSub } from "./stream-registry";
import { parseSse, readChunks, startUpstream, teamWithProvider, textOf } from "@/test/support/test-turns";
import { adderTool, runTurn, storedTurn } from "@/test/support/turn-harness";

const REDIS = process.env.TEST_REDIS_URL?.trim() || process.env.REDIS_URL?.trim();

describe("LocalPubSub", () => {
  it("behaves like Redis for what resumable streams need", async () => {
    const ps = new LocalPubSub();
    expect(await ps.get("k")).toBeNull();
    await ps.set("k", "1", { EX: 60 });
    expect(await ps.incr("k")).toBe(2);
    const got: string[] = [];
    await ps.subscribe("ch", (m) => got.push(m));
    expect(await ps.publish("ch", "hello")).toBe(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(got).toEqual(["hello"]);
    await ps.unsubscribe("ch");
    expect(await ps.publish("ch", "again")).toBe(0);
    await ps.set("gone", "x", { EX: -1 });
    expect(await ps.get("gone")).toBeNull();
  });
});

describe.each([
  { name: "in-process", redis: undefined as string | undefined, skip: false },
  { name: "Redis", redis: REDIS, skip: !REDIS },
])("resume and stop ($name)", ({ redis, skip }) => {
  let mock: LLMock;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    if (skip) return;
    if (redis) process.env.REDIS_URL = redis;
    else delete process.env.REDIS_URL;
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("parley.streamRegistry")];
    ({ stop } = await startTestApp(DRIVERS[0]));
    mock = await startUpstream({ chunkSize: 3 });
  });
  afterAll(async () => {
    await mock?.stop();
    await stop?.();
    delete process.env.REDIS_URL;
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("parley.streamRegistry")];
  });

  it.skipIf(skip)("a reader that joins mid-turn gets the whole stream from the start, then live", async () => {
    const text = Array.from({ length: 40 }, (_, i) => `n${i}`).join(" ");
    mock.onMessage("resume me", { content: text }, { latency: 15 });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const done = storedTurn();
    const first = await runTurn(ctx, { chatId: chat.id, text: "resume me" }, { onStored: done.onStored });
    const reader = first.body!.getReader();
    await reader.read();
    await new Promise((r) => setTimeout(r, 150));
    await reader.cancel(); // the tab reloads
    const resumed = await resumeTurn(ctx, chat.id);
    expect(resumed).not.toBeNull();
    const chunks = await readChunks(resumed!);
    expect(chunks[0].type).toBe("start");
    expect(textOf(chunks)).toBe(text);
    await done.promise;
    expect(await resumeTurn(ctx, chat.id)).toBeNull(); // nothing runs any more: 204
  });

  it.skipIf(skip)("a reader that joins an answer continued after an approval sees it from its start, and the call it goes on with", async () => {
    const text = Array.from({ length: 40 }, (_, i) => `s${i}`).join(" ");
    mock.addFixture({
      match: { userMessage: "add after approval", hasToolResult: false },
      response: { content: "Let me add.", toolCalls: [{ name: "add", arguments: JSON.stringify({ a: 2, b: 3 }), id: "call_resume" }] },
    });
    mock.addFixture({ match: { userMessage: "add after approval", hasToolResult: true }, response: { content: text }, latency: 15 });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const { add } = adderTool({ needsApproval: true });
    const asked = storedTurn();
    const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "add after approval" }, { tools: { add }, onStored: asked.onStored }));
    await asked.promise;
    const approvalId = String(chunks.find((c) => c.type === "tool-approval-request")?.approvalId);
    const went = storedTurn();
    const continued = await runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools: { add }, onStored: went.onStored });
    const reader = continued.body!.getReader();
    await reader.read();
    await reader.cancel(); // the tab reloads while the answer goes on
    const resumed = await resumeTurn(ctx, chat.id);
    // The page reads the replay from an empty message (the AI SDK resets it at the replay's start).
    const stream = new ReadableStream<UIMessageChunk>({
      async start(c) {
        for (const chunk of await readChunks(resumed!)) c.enqueue(chunk as UIMessageChunk);
        c.close();
      },
    });
    let page: UIMessage | undefined;
    for await (const m of readUIMessageStream({ stream, terminateOnError: true })) page = m;
    expect(page?.parts.find((p) => p.type === "text")).toMatchObject({ text: "Let me add." });
    expect(page?.parts.find((p) => p.type === "tool-add")).toMatchObject({ state: "output-available", output: { sum: 5 } });
    expect(page?.parts.at(-1)).toMatchObject({ type: "text", text });
    await went.promise;
  });

  it.skipIf(skip || !redis)("another instance resumes and stops a turn it does not run", async () => {
    const text = Array.from({ length: 300 }, (_, i) => `m${i}`).join(" ");
    mock.onMessage("other instance", { content: text }, { latency: 10 });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const done = storedTurn();
    const first = await runTurn(ctx, { chatId: chat.id, text: "other instance" }, { onStored: done.onStored });
    void first.body!.cancel();
    const other = await buildRegistry(redis);
    try {
      const streamId = (await (await db()).chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId!;
      const live = await other.streams.resumeExistingStream(streamId);
      const reader = live!.getReader();
      let seen = "";
      const streamedText = () => textOf(parseSse(seen.slice(0, seen.lastIndexOf("\n\n") + 1)));
      while (streamedText().length < 60) {
        const { done: end, value } = await reader.read();
        if (end) throw new Error("the turn ended before it could be stopped");
        seen += value;
      }
      await other.publishStop(chat.id);
      for (;;) {
        const { done: end, value } = await reader.read();
        if (end) break;
        seen += value;
      }
      const chunks = parseSse(seen);
      expect(chunks.some((c) => c.type === "abort")).toBe(true);
      expect(textOf(chunks).length).toBeLessThan(text.length);
      expect((await done.promise).status).toBe("stopped");
    } finally {
      await other.close();
    }
  });
});

describe.skipIf(!REDIS)("an instance that stops (Redis)", () => {
  it("ends the streams it still records, so readers on other instances hear the end instead of waiting", async () => {
    const stopping = await buildRegistry(REDIS);
    const other = await buildRegistry(REDIS);
    try {
      const streamId = `closing-${Date.now()}`;
      const live = await stopping.record(streamId);
      live.append("data: one\n\n");
      const reader = (await other.streams.resumeExistingStream(streamId))!.getReader();
      expect((await reader.read()).value).toBe("data: one\n\n");
      await stopping.close(); // the stream was never ended by its turn (the process stops)
      // Without the end message the reader would wait for the library's watchdog (two 10 s looks).
      const next = await Promise.race([reader.read(), new Promise<"still waiting">((r) => setTimeout(() => r("still waiting"), 5_000))]);
      expect(next).toEqual({ done: true, value: undefined });
      expect(await other.streams.hasExistingStream(streamId)).toBe("DONE");
    } finally {
      await other.close();
    }
  });
});
