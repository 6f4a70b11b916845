// A fetch for the MCP SDK's HTTP transports that never lets one message from a server grow past a
// byte limit. The SDK reads a whole JSON-RPC message into memory before it parses it (an SSE event or
// a JSON body), and has no size option: a 100 MB result cost gigabytes of memory. Here each SSE event
// is held until it is complete and passed on whole; one that grows past the limit is dropped as it
// arrives, and the requests of that POST are answered in its place with a result saying why (an
// `isError` result for tools/call, which the tool block shows as ToolFailed; a JSON-RPC error for
// anything else), and the server's stream is cancelled. A JSON body is held the same way.
import type { FetchLike } from "@modelcontextprotocol/client";
import { config } from "../config";

/** Bytes of one message from an MCP server that are read at most: 8 × PARLEY_MAX_TOOL_RESULT_CHARS. */
function maxMessageBytes(): number {
  return config().PARLEY_MAX_TOOL_RESULT_CHARS * 8;
}

type RequestRef = { id: string | number; method: string };

/** The JSON-RPC requests in a POST body (one message or a batch), so they can be answered here. */
export function requestsOf(body: unknown): RequestRef[] {
  if (typeof body !== "string" || body.length > 1_000_000) return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter(
      (m): m is RequestRef => !!m && typeof m === "object" && "method" in m && "id" in m && (typeof m.id === "string" || typeof m.id === "number"),
    );
  } catch {
    return [];
  }
}

const mb = (bytes: number) => (bytes < 1_000_000 ? `${bytes.toLocaleString("en")} bytes` : `${Math.round(bytes / 100_000) / 10} MB`);

/** The answer given in place of a message that was too large. */
function tooLarge(req: RequestRef, limit: number): object {
  const message = `The server's answer was larger than ${mb(limit)}, more than Parley reads (8 × PARLEY_MAX_TOOL_RESULT_CHARS); it was not read.`;
  return req.method === "tools/call"
    ? { jsonrpc: "2.0", id: req.id, result: { content: [{ type: "text", text: message }], isError: true } }
    : { jsonrpc: "2.0", id: req.id, error: { code: -32603, message } };
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const encoder = new TextEncoder();

/** Passes SSE events on whole; an event over `limit` bytes is dropped (see the header). */
function sseLimit(limit: number, requests: RequestRef[]): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let skipping = false; // dropping the rest of an oversized event (no request to answer)
  let afterNewline = false; // the last byte (CR aside) was a line feed: the next one ends the event
  return new TransformStream({
    transform(chunk, controller) {
      let start = 0;
      let i = 0;
      const segment = (end: number, complete: boolean): boolean => {
        const part = chunk.subarray(start, end);
        start = end;
        if (skipping) {
          if (complete) skipping = false;
          return true;
        }
        if (heldBytes + part.length > limit) {
          held = [];
          heldBytes = 0;
          if (requests.length) {
            controller.enqueue(encoder.encode(requests.map((r) => `event: message\ndata: ${JSON.stringify(tooLarge(r, limit))}\n\n`).join("")));
            controller.terminate();
            return false;
          }
          skipping = !complete;
          return true;
        }
        held.push(part);
        heldBytes += part.length;
        if (complete) {
          controller.enqueue(concat(held, heldBytes));
          held = [];
          heldBytes = 0;
        }
        return true;
      };
      while (i < chunk.length) {
        if (afterNewline) {
          const b = chunk[i];
          if (b === 13) {
            i++;
            continue;
          }
          afterNewline = false;
          if (b === 10) {
            i++;
            if (!segment(i, true)) return;
            continue;
          }
        }
        const lf = chunk.indexOf(10, i);
        if (lf < 0) break;
        afterNewline = true;
        i = lf + 1;
      }
      if (start < chunk.length) segment(chunk.length, false);
    },
    flush(controller) {
      if (heldBytes && !skipping) controller.enqueue(concat(held, heldBytes));
    },
  });
}

/** Holds a JSON body; past `limit` bytes it is replaced by the answers of the POST's requests. */
function jsonLimit(limit: number, requests: RequestRef[]): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  return new TransformStream({
    transform(chunk, controller) {
      if (heldBytes + chunk.length > limit) {
        held = [];
        const answers = requests.map((r) => tooLarge(r, limit));
        controller.enqueue(encoder.encode(JSON.stringify(answers.length === 1 ? answers[0] : answers)));
        controller.terminate();
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
    },
    flush(controller) {
      if (heldBytes) controller.enqueue(concat(held, heldBytes));
    },
  });
}

/** `base` with every successful SSE or JSON response bounded to `limit` bytes per message. */
export function boundedFetch(limit: () => number = maxMessageBytes, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    if (!res.ok || !res.body) return res;
    const type = res.headers.get("content-type") ?? "";
    const stage = type.includes("text/event-stream") ? sseLimit : type.includes("application/json") ? jsonLimit : undefined;
    if (!stage) return res;
    return new Response(res.body.pipeThrough(stage(limit(), requestsOf(init?.body))), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
