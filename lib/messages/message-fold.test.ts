// The store's fold builds the same message as the AI SDK's readUIMessageStream, chunk by chunk, for
// every kind of chunk a turn sends: text, reasoning, tools (static and dynamic, streamed input,
// approvals, denials, errors, preliminary output), files, sources, data parts, metadata, steps and a
// continued answer. So blocks stored from it are the blocks stored before.
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "./message-types";
import { messageFold } from "./message-fold";

const ID = "m-1";

async function viaSdk(chunks: UIMessageChunk[], start?: ParleyUIMessage): Promise<ParleyUIMessage[]> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  const out: ParleyUIMessage[] = [];
  for await (const m of readUIMessageStream<ParleyUIMessage>({ stream, message: start, onError: () => {} })) out.push(m);
  return out;
}

async function viaFold(chunks: UIMessageChunk[], start?: ParleyUIMessage) {
  const fold = messageFold(ID, start);
  const changed: number[] = [];
  for (const c of chunks) changed.push((await fold.apply(c as never)).changed);
  return { message: fold.message, changed };
}

/** JSON drops undefined fields, as the database does. */
const plain = (m: unknown) => JSON.parse(JSON.stringify(m));

async function expectSame(chunks: UIMessageChunk[], start?: ParleyUIMessage) {
  const sdk = await viaSdk(chunks, start && structuredClone(start));
  const { message } = await viaFold(chunks, start);
  expect(plain(message)).toEqual(plain(sdk.at(-1)));
}

const begin: UIMessageChunk[] = [{ type: "start", messageId: ID, messageMetadata: { status: "streaming", model: "m" } }, { type: "start-step" }];

describe("message fold", () => {
  it("builds text and reasoning as the SDK does, and says which part each delta changed", async () => {
    const chunks: UIMessageChunk[] = [
      ...begin,
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "Let me " },
      { type: "reasoning-delta", id: "r", delta: "think." },
      { type: "reasoning-end", id: "r" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hello " },
      { type: "text-delta", id: "t", delta: "world" },
      { type: "text-end", id: "t", providerMetadata: { p: { a: 1 } }, citations: [{ type: "url", url: "https://example.com", title: "Ex" }] as never },
      { type: "finish-step" },
      { type: "finish", finishReason: "stop", messageMetadata: { status: "done", usage: { inputTokens: 3, outputTokens: 5 } } },
    ];
    await expectSame(chunks);
    const { changed } = await viaFold(chunks);
    expect(changed).toEqual([-1, 0, 1, 1, 1, 1, 2, 2, 2, 2, -1, -1]);
  });

  it("follows tool calls through streamed input, approval, denial, errors and preliminary output", async () => {
    await expectSame([
      ...begin,
      { type: "tool-input-start", toolCallId: "c1", toolName: "echo", toolMetadata: { server: "s" } },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '{"text":"hi' },
      { type: "tool-input-delta", toolCallId: "c1", inputTextDelta: '"}' },
      { type: "tool-input-available", toolCallId: "c1", toolName: "echo", input: { text: "hi" } },
      { type: "tool-approval-request", toolCallId: "c1", approvalId: "a1", reason: "Rule: ask" },
      { type: "tool-input-available", toolCallId: "c6", toolName: "echo", input: { text: "auto" } },
      { type: "tool-approval-request", toolCallId: "c6", approvalId: "a6", isAutomatic: true },
      { type: "tool-approval-response", approvalId: "a6", approved: true, reason: "allowed" },
      { type: "tool-input-available", toolCallId: "c2", toolName: "sum", input: { a: 1 }, providerMetadata: { x: { y: 1 } } },
      { type: "tool-output-available", toolCallId: "c2", output: { partial: true }, preliminary: true },
      { type: "tool-output-available", toolCallId: "c2", output: { value: 3 } },
      { type: "tool-input-available", toolCallId: "c3", toolName: "fail", input: {} },
      { type: "tool-output-error", toolCallId: "c3", errorText: "[ERROR:ToolFailed] no" },
      { type: "tool-input-error", toolCallId: "c4", toolName: "nope", input: "{bad", errorText: "[ERROR:InvalidArgs] bad" },
      { type: "tool-input-start", toolCallId: "d1", toolName: "dyn", dynamic: true, title: "Dynamic" },
      { type: "tool-input-available", toolCallId: "d1", toolName: "dyn", input: { q: 1 }, dynamic: true },
      { type: "tool-output-error", toolCallId: "d1", errorText: "[ERROR:Aborted] stopped" },
      { type: "tool-input-error", toolCallId: "d2", toolName: "dyn2", input: { q: 2 }, errorText: "bad", dynamic: true },
      { type: "finish-step" },
      { type: "start-step" },
      { type: "tool-input-available", toolCallId: "c5", toolName: "echo", input: { text: "no" } },
      { type: "tool-output-denied", toolCallId: "c5" },
      { type: "finish", finishReason: "tool-calls" },
    ]);
  });

  it("keeps files, sources, data parts (replacing by id, skipping transient ones) and merged metadata", async () => {
    await expectSame([
      ...begin,
      { type: "data-notice", data: { code: "ServerUnavailable", message: "down" } },
      { type: "data-title", data: { title: "T" }, transient: true },
      { type: "data-error", id: "e", data: { code: "A", message: "first" } },
      { type: "data-error", id: "e", data: { code: "B", message: "second" } },
      { type: "source-url", sourceId: "s1", url: "https://example.com", title: "Ex" },
      { type: "source-document", sourceId: "s2", mediaType: "text/plain", title: "Doc", filename: "a.txt" },
      { type: "file", mediaType: "image/png", url: "data:image/png;base64,AA==" },
      { type: "reasoning-file", mediaType: "image/png", url: "data:image/png;base64,AB==" },
      { type: "message-metadata", messageMetadata: { citations: [{ n: 1, url: "https://example.com" }] } as never },
      { type: "message-metadata", messageMetadata: { usage: { inputTokens: 1 } } },
      { type: "message-metadata", messageMetadata: { usage: { outputTokens: 2 } } },
      { type: "error", errorText: "boom" },
      { type: "abort" },
    ]);
  });

  it("continues a stored answer without changing the caller's copy", async () => {
    const start: ParleyUIMessage = {
      id: ID,
      role: "assistant",
      metadata: { status: "streaming", usage: { inputTokens: 4 } },
      parts: [
        { type: "step-start" },
        { type: "tool-echo", toolCallId: "c1", state: "approval-responded", input: { text: "hi" }, approval: { id: "a1", approved: true } } as never,
      ],
    };
    const copy = structuredClone(start);
    await expectSame(
      [
        { type: "start", messageId: ID },
        { type: "tool-output-available", toolCallId: "c1", output: "hi" },
        { type: "start-step" },
        { type: "text-start", id: "t" },
        { type: "text-delta", id: "t", delta: "Done." },
        { type: "text-end", id: "t" },
        { type: "finish", messageMetadata: { status: "done" } },
      ],
      start,
    );
    expect(start).toEqual(copy);
  });
});
