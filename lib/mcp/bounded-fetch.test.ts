// The byte limit on what an MCP server may send in one message: events under it pass whole and
// unchanged however the bytes are split; one over it is never held, and the request is answered
// with a result saying why.
import { describe, expect, it } from "vitest";
import { boundedFetch } from "./bounded-fetch";

const enc = new TextEncoder();

/** A fetch answering with `body` split into chunks of `size` bytes. */
function serve(body: string, type: string, size: number) {
  const bytes = enc.encode(body);
  let pulled = 0;
  const fetch = async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        pull(c) {
          if (pulled >= bytes.length) return c.close();
          c.enqueue(bytes.subarray(pulled, pulled + size));
          pulled += size;
        },
      }),
      { headers: { "content-type": type } },
    );
  return { fetch, read: () => pulled };
}

const call = (id: number) => ({ method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "x" } }) });
const event = (data: object, eol = "\n") => `event: message${eol}data: ${JSON.stringify(data)}${eol}${eol}`;

describe("boundedFetch", () => {
  it("passes SSE events under the limit unchanged, whatever the chunking and line endings", async () => {
    for (const eol of ["\n", "\r\n"]) {
      const body =
        event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, eol) +
        event({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi" }] } }, eol);
      for (const size of [1, 3, 7, 64, 10_000]) {
        const res = await boundedFetch(() => 1000, serve(body, "text/event-stream", size).fetch)("http://x/mcp", call(1));
        expect(await res.text()).toBe(body);
      }
    }
  });

  it("answers a tools/call whose result is over the limit with an isError result, without reading the rest", async () => {
    const huge = event({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "x".repeat(5_000_000) }] } });
    const progress = event({ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } });
    const server = serve(progress + huge, "text/event-stream", 16_384);
    const res = await boundedFetch(() => 100_000, server.fetch)("http://x/mcp", call(7));
    const text = await res.text();
    expect(text.startsWith(progress)).toBe(true);
    const answer = JSON.parse(text.slice(progress.length).split("data: ")[1]);
    expect(answer).toMatchObject({ id: 7, result: { isError: true, content: [{ type: "text", text: expect.stringMatching(/larger than 100,000 bytes/) }] } });
    expect(server.read()).toBeLessThan(200_000); // the server's stream was cancelled, not drained
  });

  it("bounds a JSON body the same way", async () => {
    const small = JSON.stringify({ jsonrpc: "2.0", id: 2, result: { content: [] } });
    expect(await (await boundedFetch(() => 1000, serve(small, "application/json", 5).fetch)("http://x/mcp", call(2))).text()).toBe(small);
    const big = JSON.stringify({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "y".repeat(50_000) }] } });
    const answer = await (await boundedFetch(() => 1000, serve(big, "application/json", 512).fetch)("http://x/mcp", call(3))).json();
    expect(answer).toMatchObject({ id: 3, result: { isError: true } });
  });

  it("on a stream with no request (the server's own GET stream) drops the oversized event and goes on", async () => {
    const after = event({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    const body = event({ jsonrpc: "2.0", method: "notifications/message", params: { data: "z".repeat(10_000) } }) + after;
    const res = await boundedFetch(() => 1000, serve(body, "text/event-stream", 100).fetch)("http://x/mcp", { method: "GET" });
    expect(await res.text()).toBe(after);
  });
});
