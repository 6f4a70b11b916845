// A call's answer stream that ends or breaks before the answer: the missing answers are given as
// "connection closed" errors, so the call ends at once. Answered calls, resumable streams (event
// ids: the SDK resumes them) and a session being closed pass through as they are.
import { describe, expect, it } from "vitest";
import { answerDroppedCalls } from "./dropped-calls";

const enc = new TextEncoder();
const call = (id: number, signal?: AbortSignal) => ({
  method: "POST",
  signal,
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } }),
});
const event = (data: object, extra = "") => `event: message\n${extra}data: ${JSON.stringify(data)}\n\n`;
const progress = event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });

/** A fetch whose SSE body sends `text` in chunks of `size` bytes, then ends or breaks. */
function serve(text: string, end: "close" | "break", size = 5) {
  const bytes = enc.encode(text);
  let at = 0;
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (at < bytes.length) {
            c.enqueue(bytes.subarray(at, (at += size)));
            return;
          }
          if (end === "close") c.close();
          else c.error(new TypeError("terminated", { cause: new Error("other side closed") }));
        },
      }),
      { headers: { "content-type": "text/event-stream" } },
    );
}

/** The JSON-RPC messages of an SSE body. */
const messages = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)) as { id?: number; result?: unknown; error?: { code: number; message: string } });

describe("answerDroppedCalls", () => {
  it("answers a call whose stream breaks or ends before its answer with a 'connection closed' error", async () => {
    for (const end of ["break", "close"] as const) {
      const res = await answerDroppedCalls(serve(progress, end))("http://x/mcp", call(4));
      const got = messages(await res.text());
      expect(got).toHaveLength(2);
      expect(got[1]).toMatchObject({
        id: 4,
        error: { code: -32000, message: expect.stringMatching(end === "break" ? /connection broke \(other side closed\)/ : /server closed it/) },
      });
    }
  });

  it("passes an answered call's stream unchanged, whatever the chunking and line endings, even if it breaks afterwards", async () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const body = (progress + event({ jsonrpc: "2.0", id: 9, result: { content: [] } })).replaceAll("\n", eol);
      for (const size of [1, 2, 7, 1000]) {
        const res = await answerDroppedCalls(serve(body, "close", size))("http://x/mcp", call(9));
        expect(await res.text()).toBe(body);
      }
      // (A lone CR at the very end could still be half a CRLF when the stream breaks: left out here.)
      if (eol === "\r") continue;
      const broken = await answerDroppedCalls(serve(body, "break", 3))("http://x/mcp", call(9));
      await expect(broken.text()).rejects.toThrow(/terminated/);
    }
  });

  it("leaves a resumable stream (one with event ids) to the SDK, which resumes it", async () => {
    const primed = `id: ev-1\ndata: \n\n${event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, "id: ev-2\n")}`;
    await expect((await answerDroppedCalls(serve(primed, "break"))("http://x/mcp", call(1))).text()).rejects.toThrow(/terminated/);
    expect(await (await answerDroppedCalls(serve(primed, "close"))("http://x/mcp", call(1))).text()).toBe(primed);
  });

  it("adds nothing when the session itself is being closed, or to a stream without requests", async () => {
    const closing = new AbortController();
    closing.abort();
    await expect((await answerDroppedCalls(serve(progress, "break"))("http://x/mcp", call(2, closing.signal))).text()).rejects.toThrow(/terminated/);
    await expect((await answerDroppedCalls(serve(progress, "break"))("http://x/mcp", { method: "GET" })).text()).rejects.toThrow(/terminated/);
  });
});
