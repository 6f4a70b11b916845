// Merging a provider's text-delta events before its parser: the real provider clients, reading
// aimock's real event streams for each wire format, must see the same text, reasoning, tool calls,
// finish and usage whether the events arrive one by one or all in one socket read (merged).
import { LLMock } from "@copilotkit/aimock";
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ProviderKind } from "../db/generated/client";
import { languageModel } from "./model-factory";
import { holdMs, mergeEvents, sseMerger } from "./sse-merge";

let mock: LLMock;
beforeAll(async () => {
  mock = new LLMock({ port: 0, host: "127.0.0.1", chunkSize: 3 });
  await mock.start();
});
afterAll(async () => mock?.stop());

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const nextTurn = () => new Promise((r) => setTimeout(r, 1));

/** A body that sends `pieces` one per turn of the event loop (as an idle socket would), or all at once. */
function bodyOf(pieces: Uint8Array[], together: boolean): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      for (const p of pieces) {
        controller.enqueue(p);
        if (!together) await nextTurn();
      }
      controller.close();
    },
  });
}

/** Hands the provider `recorded` (an event stream aimock sent) one event at a time, or all in one read. */
function replayingFetch(recorded: { status: number; headers: Headers; text: string }, together: boolean): typeof fetch {
  return (async () => {
    const pieces = together ? [encoder.encode(recorded.text)] : recorded.text.split(/(?<=\n\n)/).map((e) => encoder.encode(e));
    return new Response(bodyOf(pieces, together), { status: recorded.status, headers: recorded.headers });
  }) as unknown as typeof fetch;
}

function modelFor(kind: ProviderKind, fetchImpl: typeof fetch) {
  return languageModel({ kind, name: "aimock", baseUrl: `${mock.url}/v1`, apiKeyEnc: null, headersEnc: null }, "gpt-test", fetchImpl);
}

const call: Pick<LanguageModelV4CallOptions, "tools"> = {
  tools: [{ type: "function", name: "lookup", description: "Looks a word up.", inputSchema: { type: "object", properties: { q: { type: "string" } } } }],
};

async function partsOf(model: ReturnType<typeof modelFor>, prompt: string) {
  const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: prompt }] }], ...call });
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  return parts;
}

/** The provider's parts for aimock's answer to `prompt`, read once event by event and once all merged. */
async function apartAndMerged(kind: ProviderKind, prompt: string) {
  let recorded: { status: number; headers: Headers; text: string } | undefined;
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const real = await fetch(input, init);
    recorded = { status: real.status, headers: real.headers, text: await real.text() };
    return new Response(recorded.text, { status: recorded.status, headers: recorded.headers });
  }) as typeof fetch;
  await partsOf(modelFor(kind, recording), prompt);
  return {
    apart: await partsOf(modelFor(kind, replayingFetch(recorded!, false)), prompt),
    merged: await partsOf(modelFor(kind, replayingFetch(recorded!, true)), prompt),
  };
}

/** The parts with adjacent deltas of one block joined and volatile fields left out: what a reader sees. */
function joined(parts: LanguageModelV4StreamPart[]) {
  const out: Record<string, unknown>[] = [];
  for (const part of parts) {
    if (part.type === "raw" || part.type === "response-metadata") continue;
    const last = out.at(-1);
    if ((part.type === "text-delta" || part.type === "reasoning-delta") && last?.type === part.type && last.id === part.id) {
      last.delta = `${String(last.delta)}${part.delta}`;
      continue;
    }
    out.push({ ...part });
  }
  return out;
}

/** Deltas that carry text (Anthropic ends thinking with an empty one that holds its signature). */
const deltaCount = (parts: LanguageModelV4StreamPart[]) => parts.filter((p) => (p.type === "text-delta" || p.type === "reasoning-delta") && p.delta).length;

describe.each(["openai_chat", "openai_compatible", "openai_responses", "anthropic"] as const)("the %s client reading merged events", (kind) => {
  // Events read apart stay apart here: frames (below) would join them too.
  beforeAll(() => vi.stubEnv("PARLEY_STREAM_FRAME_MS", "0"));
  afterAll(() => vi.unstubAllEnvs());

  it("sees the same text and reasoning in far fewer deltas, and the same finish and usage", async () => {
    const prompt = `merge text over ${kind}`;
    const content = "Streaming answers arrive token by token; merged, they read the same — ünïcödé too.";
    const reasoning = kind === "openai_chat" ? undefined : "First think, then answer.";
    mock.onMessage(prompt, { content, reasoning });
    const { apart, merged } = await apartAndMerged(kind, prompt);

    expect(joined(merged)).toEqual(joined(apart));
    const text = joined(merged)
      .filter((p) => p.type === "text-delta")
      .map((p) => p.delta)
      .join("");
    expect(text).toBe(content);
    expect(merged.find((p) => p.type === "finish")).toMatchObject({ type: "finish" });
    expect(deltaCount(apart)).toBeGreaterThan(20);
    expect(deltaCount(merged)).toBeLessThanOrEqual(reasoning ? 2 : 1);
  });

  it("leaves tool calls whole", async () => {
    const prompt = `merge tools over ${kind}`;
    mock.onMessage(prompt, { toolCalls: [{ name: "lookup", arguments: JSON.stringify({ q: "a fairly long query to split" }) }] });
    const { apart, merged } = await apartAndMerged(kind, prompt);
    expect(joined(merged)).toEqual(joined(apart));
    expect(merged.find((p) => p.type === "tool-call")).toMatchObject({ toolName: "lookup", input: JSON.stringify({ q: "a fairly long query to split" }) });
  });
});

describe("mergeEvents", () => {
  const chat = (id: string, delta: object, extra: object = {}) =>
    `data: ${JSON.stringify({ id, choices: [{ index: 0, delta, finish_reason: null }], ...extra })}\n\n`;

  it("folds a run of one block's text deltas into one event and keeps everything else as it was", () => {
    const role = chat("c1", { role: "assistant", content: "" });
    const finish = `data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`;
    const usage = `data: ${JSON.stringify({ id: "c1", choices: [], usage: { prompt_tokens: 3 } })}\n\n`;
    const input = role + chat("c1", { content: "Hel" }) + chat("c1", { content: "lo " }) + chat("c1", { content: "you" }) + finish + usage + "data: [DONE]\n\n";
    expect(mergeEvents(input, "chat")).toBe(chat("c1", { role: "assistant", content: "Hello you" }) + finish + usage + "data: [DONE]\n\n");
  });

  it("never merges across blocks, kinds of text, or events it does not understand", () => {
    const input = [
      chat("c1", { content: "a" }),
      chat("c1", { reasoning_content: "b" }),
      chat("c2", { content: "c" }),
      `id: 7\n${chat("c2", { content: "d" })}`,
      chat("c2", { content: "e" }),
      ": keep-alive\n\n",
      chat("c2", { content: "f" }),
      chat("c2", { content: "g" }, { usage: { prompt_tokens: 1 } }),
    ].join("");
    expect(mergeEvents(input, "chat")).toBe(input);
  });

  it("keeps an Anthropic block's text apart from its thinking and from other blocks", () => {
    const ev = (index: number, delta: object) => `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index, delta })}\n\n`;
    const input =
      ev(0, { type: "thinking_delta", thinking: "x" }) +
      ev(0, { type: "thinking_delta", thinking: "y" }) +
      ev(1, { type: "text_delta", text: "A" }) +
      ev(1, { type: "text_delta", text: "B" }) +
      ev(2, { type: "text_delta", text: "C" });
    expect(mergeEvents(input, "anthropic")).toBe(
      ev(0, { type: "thinking_delta", thinking: "xy" }) + ev(1, { type: "text_delta", text: "AB" }) + ev(2, { type: "text_delta", text: "C" }),
    );
  });
});

describe("sseMerger", () => {
  async function through(pieces: (string | Uint8Array)[], together: boolean) {
    const bytes = pieces.map((p) => (typeof p === "string" ? encoder.encode(p) : p));
    const reads: string[] = [];
    const reader = bodyOf(bytes, together).pipeThrough(sseMerger("chat")).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(decoder.decode(r.value));
    return reads;
  }
  const ev = (content: string) => `data: {"id":"c","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]}\n\n`;

  it("passes each event on alone when they come one read at a time", async () => {
    expect(await through([ev("a"), ev("b"), ev("c")], false)).toEqual([ev("a"), ev("b"), ev("c")]);
  });

  it("merges events that wait together, across reads cut mid-event and mid-character", async () => {
    const all = encoder.encode(ev("é1") + ev("€2") + ev("3"));
    const cut = [all.slice(0, 40), all.slice(40, 41), all.slice(41)];
    expect(await through(cut, true)).toEqual([ev("é1€23")]);
  });

  it("passes a CRLF stream through byte for byte", async () => {
    const crlf = ev("a").replace(/\n/g, "\r\n") + ev("b").replace(/\n/g, "\r\n");
    expect((await through([crlf], true)).join("")).toBe(crlf);
  });

  it("sends a last event that lacks its blank line at the end", async () => {
    expect((await through([ev("a") + ev("b") + "data: [DONE]"], true)).join("")).toBe(ev("ab") + "data: [DONE]");
  });
});

describe("frames", () => {
  afterEach(() => vi.useRealTimers());
  const ev = (content: string) => `data: {"id":"c","choices":[{"index":0,"delta":{"content":${JSON.stringify(content)}}}]}\n\n`;

  /** A merger with 16 ms frames, written to by hand; `reads` is what its reader has had so far. */
  function framed() {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const merger = sseMerger("chat", 16);
    const writer = merger.writable.getWriter();
    const reader = merger.readable.getReader();
    const reads: string[] = [];
    const done = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(decoder.decode(r.value));
    })();
    const write = (text: string) => writer.write(encoder.encode(text));
    return { reads, write, close: () => writer.close().then(() => done), wait: (ms: number) => vi.advanceTimersByTimeAsync(ms) };
  }

  it("sends the first event at once, and what follows within the frame merged at its end", async () => {
    const s = framed();
    await s.write(ev("a"));
    expect(s.reads).toEqual([ev("a")]);
    await s.wait(2);
    await s.write(ev("b"));
    await s.wait(2);
    await s.write(ev("c"));
    await s.wait(10);
    expect(s.reads).toEqual([ev("a")]);
    await s.wait(2);
    expect(s.reads).toEqual([ev("a"), ev("bc")]);
    await s.close();
  });

  it("starts the frames with the first text: a role or ids before it never hold the first words", async () => {
    const s = framed();
    const role = `data: {"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n`;
    await s.write(role);
    await s.wait(2);
    await s.write(ev("a"));
    expect(s.reads).toEqual([role, ev("a")]);
    await s.wait(2);
    await s.write(ev("b"));
    expect(s.reads).toEqual([role, ev("a")]);
    await s.close();
    expect(s.reads).toEqual([role, ev("a"), ev("b")]);
  });

  it("sends an event after a quiet frame at once", async () => {
    const s = framed();
    await s.write(ev("a"));
    await s.wait(40);
    await s.write(ev("b"));
    expect(s.reads).toEqual([ev("a"), ev("b")]);
    await s.close();
  });

  it("sends what waits when the stream ends, without waiting for the frame", async () => {
    const s = framed();
    await s.write(ev("a"));
    await s.write(ev("b") + "data: [DONE]");
    await s.close();
    expect(s.reads.join("")).toBe(ev("a") + ev("b") + "data: [DONE]");
  });

  it("widens the frame with the streams read at once, up to 100 ms; 0 turns frames off", () => {
    expect(holdMs(16, 1)).toBe(16);
    expect(holdMs(16, 50)).toBe(40);
    expect(holdMs(16, 100)).toBe(80);
    expect(holdMs(16, 1000)).toBe(100);
    expect(holdMs(0, 100)).toBe(0);
  });
});
