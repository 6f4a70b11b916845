// The floor Parley is measured against: the bare AI SDK relay, a plain Node HTTP server that pipes
// streamText's UI message stream to the response (no sign-in, no database, no resume, no Next.js).
// Plain JavaScript run by plain node (no loader), so its CPU is the AI SDK's own. Started by relay.ts,
// which reads its URL from the first line it prints. Argument: JSON { port, upstream, apiKey, model }.
import http from "node:http";
import { createOpenAI } from "@ai-sdk/openai";
import { pipeUIMessageStreamToResponse, streamText, toUIMessageStream } from "ai";

const cfg = JSON.parse(process.argv[2] ?? "{}");
const model = createOpenAI({ baseURL: cfg.upstream, apiKey: cfg.apiKey }).chat(cfg.model);

const server = http.createServer(async (req, res) => {
  if (req.method !== "POST") {
    res.writeHead(404).end();
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const { prompt } = JSON.parse(body);
  const result = streamText({ model, prompt, onError: () => {} });
  pipeUIMessageStreamToResponse({ response: res, stream: toUIMessageStream({ stream: result.stream }) });
});
server.listen(cfg.port, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${cfg.port}` })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
