// A fetch for the Streamable HTTP transport that notices when a server's answer stream for a POST
// ends or breaks before every request in it was answered (the server's process died, the connection
// was reset). The SDK only reports that through onerror and leaves the request waiting for the call
// timeout; here the missing answers are given in the server's place, as JSON-RPC "connection closed"
// errors (code -32000), so the call ends at once as unreachable. A stream that announced event ids
// (a resumable server) is left to the SDK, which reconnects and resumes it; connection.ts treats its
// reconnection giving up as the session being lost. A change stream (subscriptions/listen) is left
// alone: it has no answer until it ends.
import type { FetchLike } from "@modelcontextprotocol/client";
import { requestsOf } from "./bounded-fetch";

const encoder = new TextEncoder();
/** JSON-RPC "connection closed" (the SDK's own code for it; failures.ts reads it as unreachable). */
export const CONNECTION_CLOSED = -32000;
const EOL = /\r\n|\r|\n/g;

/** Follows the SSE events of one stream: which of `open` were answered, and whether ids were sent. */
class AnswerTracker {
  resumable = false;
  private pending = "";
  private data: string[] = [];
  private kind = "";
  private readonly decoder = new TextDecoder();

  constructor(readonly open: Set<string>) {}

  feed(chunk: Uint8Array): void {
    if (!this.open.size) return; // every request is answered: nothing left to look for
    this.pending += this.decoder.decode(chunk, { stream: true });
    let at = 0;
    for (;;) {
      EOL.lastIndex = at;
      const hit = EOL.exec(this.pending);
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (!hit || (hit[0] === "\r" && hit.index === this.pending.length - 1)) break;
      this.line(this.pending.slice(at, hit.index));
      at = hit.index + hit[0].length;
    }
    this.pending = this.pending.slice(at);
  }

  /** The stream ended: a CR at the very end was a whole line ending after all. */
  finish(): void {
    if (!this.pending.endsWith("\r")) return;
    this.pending += "\n";
    this.feed(new Uint8Array());
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") this.data.push(value);
    else if (field === "event") this.kind = value;
    else if (field === "id" && value && !value.includes("\0")) this.resumable = true;
  }

  private dispatch(): void {
    const data = this.data.join("\n");
    const kind = this.kind;
    this.data = [];
    this.kind = "";
    if (!data || (kind && kind !== "message")) return;
    try {
      const parsed = JSON.parse(data) as unknown;
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        const msg = m as { id?: unknown; result?: unknown; error?: unknown; method?: unknown };
        if (msg && typeof msg === "object" && !("method" in msg) && ("result" in msg || "error" in msg)) this.open.delete(String(msg.id));
      }
    } catch {
      // Not JSON: the SDK reports it; it answers nothing.
    }
  }
}

/** The SSE events answering each request in `ids` with a "connection closed" error. */
function closedAnswers(ids: (string | number)[], why: string): Uint8Array {
  const message = `the answer stream ended before the answer came: ${why}`;
  return encoder.encode(
    ids.map((id) => `event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, error: { code: CONNECTION_CLOSED, message } })}\n\n`).join(""),
  );
}

function reasonText(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string } } | undefined;
  return e?.cause?.message ?? e?.message ?? String(err);
}

/** `body` as it is, plus answers for the requests it left unanswered when it ended or broke. */
function answerOnDrop(
  body: ReadableStream<Uint8Array>,
  requests: { id: string | number }[],
  signal: AbortSignal | null | undefined,
): ReadableStream<Uint8Array> {
  const tracker = new AnswerTracker(new Set(requests.map((r) => String(r.id))));
  const unanswered = () => requests.filter((r) => tracker.open.has(String(r.id))).map((r) => r.id);
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        // Closing the session aborts its requests: nothing is waiting for an answer then.
        const missing = unanswered();
        if (signal?.aborted || tracker.resumable || !missing.length) return controller.error(err);
        controller.enqueue(closedAnswers(missing, `the connection broke (${reasonText(err)})`));
        return controller.close();
      }
      if (chunk.done) {
        tracker.finish();
        const missing = unanswered();
        if (missing.length && !tracker.resumable && !signal?.aborted) controller.enqueue(closedAnswers(missing, "the server closed it"));
        return controller.close();
      }
      tracker.feed(chunk.value);
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** `base` with every SSE answer to a POST of requests watched for ending before it answered them. */
export function answerDroppedCalls(base: FetchLike): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    // A subscriptions/listen stream (2026-07-28) stays open with no answer by design; closing it is normal.
    const requests = init?.method === "POST" ? requestsOf(init.body).filter((r) => r.method !== "subscriptions/listen") : [];
    if (!res.ok || !res.body || !requests.length || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) return res;
    return new Response(answerOnDrop(res.body, requests, init?.signal), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
