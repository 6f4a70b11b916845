// A stored answer replayed as chunks builds the same message in the AI SDK's reader (the one useChat
// uses), starting from an empty message as a resumed page does: every kind of part, every tool state.
import { readUIMessageStream, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "./message-types";
import { replayOf, replayText } from "./message-replay";
import { parseSse } from "@/test/support/test-turns";

async function rebuilt(chunks: UIMessageChunk[]): Promise<ParleyUIMessage | undefined> {
  let last: ParleyUIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
  for await (const m of readUIMessageStream<ParleyUIMessage>({ stream, terminateOnError: true })) last = m;
  return last;
}

const meta = { source: "mcp", serverId: "s1", serverName: "files", toolName: "read", toolId: "t1" };
const stored: ParleyUIMessage = {
  id: "answer-1",
  role: "assistant",
  metadata: { status: "streaming", model: "gpt-test", usage: { inputTokens: 10, outputTokens: 2 } },
  parts: [
    { type: "step-start" },
    { type: "reasoning", id: "r1", text: "Thinking it over.", state: "done" },
    { type: "text", text: "Let me look.", state: "done" },
    {
      type: "dynamic-tool",
      toolName: "files__read",
      toolCallId: "c1",
      state: "output-available",
      input: { path: "a" },
      output: { text: "A" },
      toolMetadata: meta,
    },
    { type: "dynamic-tool", toolName: "files__read", toolCallId: "c2", state: "output-error", input: { path: "b" }, errorText: "[ERROR:Timeout] too slow" },
    {
      type: "dynamic-tool",
      toolName: "files__delete",
      toolCallId: "c3",
      state: "output-denied",
      input: { path: "c" },
      approval: { id: "ap3", approved: false, reason: "Not that one" },
    },
    {
      type: "dynamic-tool",
      toolName: "files__delete",
      toolCallId: "c4",
      state: "approval-responded",
      input: { path: "d" },
      approval: { id: "ap4", approved: true },
    },
    {
      type: "dynamic-tool",
      toolName: "extras__ask",
      toolCallId: "c5",
      state: "output-available",
      input: {},
      output: { running: true, elicitation: { id: "e1" } },
      preliminary: true,
    },
    { type: "tool-add", toolCallId: "c6", state: "approval-requested", input: { a: 1, b: 2 }, approval: { id: "ap6" } },
    { type: "tool-add", toolCallId: "c7", state: "input-available", input: { a: 3, b: 4 } },
    { type: "source-url", sourceId: "s1", url: "https://example.com/a", title: "A" },
    { type: "data-notice", data: { code: "FellBack", message: "The fallback answered." } },
    { type: "step-start" },
    { type: "text", text: "Done so far.", state: "done" },
  ],
};

describe("replayOf", () => {
  it("rebuilds every part of a stored answer from an empty message", async () => {
    const message = await rebuilt(replayOf(stored));
    expect(message?.id).toBe("answer-1");
    expect(message?.metadata).toEqual(stored.metadata);
    // The reader adds fields it leaves undefined; compared as the page would store and send them (JSON).
    expect(JSON.parse(JSON.stringify(message?.parts))).toEqual(stored.parts);
  });

  it("lets the turn's own chunks go on with the calls it continues", async () => {
    const own: UIMessageChunk[] = [
      { type: "start", messageId: "answer-1", messageMetadata: { status: "streaming" } },
      { type: "tool-output-available", toolCallId: "c4", output: { deleted: "d" }, dynamic: true },
      { type: "tool-output-available", toolCallId: "c5", output: { answer: "accept" }, dynamic: true },
      { type: "start-step" },
      { type: "text-start", id: "t1" },
      { type: "text-delta", id: "t1", delta: "All done." },
      { type: "text-end", id: "t1" },
    ];
    const message = await rebuilt([...replayOf(stored), ...own]);
    const call = (id: string) => message?.parts.find((p) => (p as { toolCallId?: string }).toolCallId === id) as { state: string; output?: unknown };
    expect(call("c4")).toMatchObject({ state: "output-available", output: { deleted: "d" } });
    expect(call("c5")).toMatchObject({ state: "output-available", output: { answer: "accept" } });
    const texts = message?.parts.flatMap((p) => (p.type === "text" ? [p.text] : []));
    expect(texts).toEqual(["Let me look.", "Done so far.", "All done."]);
  });

  it("is the same chunks as server-sent events", () => {
    expect(parseSse(replayText(stored))).toEqual(replayOf(stored));
  });
});
