// A tiny scripted model server on loopback for what aimock does not emit: the OpenAI Responses API's
// web search with url_citation annotations, Anthropic answers with cache-read usage, and failures
// (401, a hang, a non-JSON answer). Used by lib tests and the e2e specs; not imported by the app.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Citation = { url: string; title: string; cite: string };
export type Script = (req: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }, res: http.ServerResponse) => void | Promise<void>;

export async function startScripted(
  script: Script,
  port = 0,
): Promise<{ url: string; requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[]; stop(): Promise<void> }> {
  const requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer(async (req, res) => {
    let body = "";
    for await (const c of req) body += c;
    const entry = { method: req.method ?? "GET", path: req.url ?? "/", headers: req.headers, body };
    requests.push(entry);
    try {
      await script(entry, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(err) } }));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sse(res: http.ServerResponse, events: object[]) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(`event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

/**
 * A Responses API stream: one web search call, then `text` whose `cite` substrings are annotated with
 * url_citation annotations (start/end index of the cited span), as OpenAI sends them.
 */
export function responsesWebSearch(res: http.ServerResponse, text: string, citations: Citation[], model = "scripted-search") {
  const msg = "msg_scripted_1";
  const events: object[] = [
    { type: "response.created", response: { id: "resp_scripted_1", created_at: Math.floor(Date.now() / 1000), model } },
    { type: "response.output_item.added", output_index: 0, item: { type: "web_search_call", id: "ws_scripted_1", status: "in_progress" } },
    {
      type: "response.output_item.done",
      output_index: 0,
      item: { type: "web_search_call", id: "ws_scripted_1", status: "completed", action: { type: "search", query: "parley citations" } },
    },
    { type: "response.output_item.added", output_index: 1, item: { type: "message", id: msg } },
  ];
  for (let i = 0; i < text.length; i += 12) events.push({ type: "response.output_text.delta", item_id: msg, delta: text.slice(i, i + 12) });
  citations.forEach((c, i) => {
    const start = text.indexOf(c.cite);
    events.push({
      type: "response.output_text.annotation.added",
      item_id: msg,
      output_index: 1,
      content_index: 0,
      annotation_index: i,
      annotation: { type: "url_citation", start_index: start, end_index: start + c.cite.length, url: c.url, title: c.title },
    });
  });
  events.push(
    { type: "response.output_item.done", output_index: 1, item: { type: "message", id: msg } },
    {
      type: "response.completed",
      response: {
        incomplete_details: null,
        usage: { input_tokens: 30, output_tokens: 20, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
      },
    },
  );
  sse(res, events);
}

/** An Anthropic Messages stream with `text` and usage that reports cache reads. */
export function anthropicAnswer(
  res: http.ServerResponse,
  text: string,
  usage = { input_tokens: 12, output_tokens: 5, cache_read_input_tokens: 1800, cache_creation_input_tokens: 0 },
) {
  sse(res, [
    {
      type: "message_start",
      message: {
        id: "msg_a1",
        type: "message",
        role: "assistant",
        model: "claude-scripted",
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output_tokens } },
    { type: "message_stop" },
  ]);
}

export function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
