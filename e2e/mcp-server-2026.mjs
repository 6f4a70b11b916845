#!/usr/bin/env node
// An MCP server of the 2026-07-28 revision only, on the SDK v2 server package: stateless (no
// sessions, no initialize; clients discover it with `server/discover`), so a client that does not
// speak 2026-07-28 is refused. The same kinds of tools as e2e/mcp-test-server.mjs (the 2025 one):
// echo, search-like and huge results, structured output (and output that breaks its schema), progress, questions to the person
// (a form and a URL, asked inside the call's answer: input_required, answered on the next round),
// an image, a tool list that changes and a resource that changes (both announced on the client's
// subscriptions/listen stream), resources, a prompt, an MCP Apps view and a tool only its view may
// call, a tool that never answers and one that ends the server.
// Usage: node e2e/mcp-server-2026.mjs [--port 0] [--host 127.0.0.1]   (Streamable HTTP on /mcp)
//        node e2e/mcp-server-2026.mjs --stdio
import http from "node:http";
import { createMcpHandler, inputRequired, inputResponse, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import * as z from "zod/v4";
import { EVERY_KIND, hugeContent, RED_DOT, registerTestResources, searchResults } from "./mcp-test-data.mjs";

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const text = (t) => ({ content: [{ type: "text", text: t }] });

// What changes at run time lives outside the per-request server instances.
const state = { added: 0, counter: 0 };
let notify = { toolsChanged() {}, resourceUpdated() {} };

function makeServer() {
  const server = new McpServer(
    { name: "parley-test-2026", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: {} } },
  );
  server.registerTool(
    "echo",
    { title: "Echo", description: "Echoes back the message", inputSchema: z.object({ message: z.string() }), annotations: { readOnlyHint: true } },
    async ({ message }) => text(`Echo: ${message}`),
  );
  server.registerTool("hang", { description: "Never answers", inputSchema: z.object({}) }, () => new Promise(() => {}));
  server.registerTool("crash", { description: "Ends the server process in the middle of the call", inputSchema: z.object({}) }, () => {
    setTimeout(() => process.exit(3), 20);
    return new Promise(() => {});
  });
  server.registerTool("fail", { description: "Returns an error result", inputSchema: z.object({}) }, async () => ({
    isError: true,
    ...text("The widget is out of stock."),
  }));
  server.registerTool(
    "slow_progress",
    { description: "Reports progress in steps", inputSchema: z.object({ steps: z.number().int().min(1).max(50), stepMs: z.number().int().min(1).max(5000) }) },
    async ({ steps, stepMs }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, stepMs));
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: steps, message: `step ${i} of ${steps}` },
          });
      }
      return text(`Finished ${steps} steps.`);
    },
  );
  server.registerTool(
    "search",
    {
      description: "Search-like results with URLs",
      inputSchema: z.object({ q: z.string() }),
      outputSchema: z.object({ results: z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string() })) }),
    },
    async ({ q }) => {
      const results = searchResults(q);
      return { ...text(JSON.stringify({ results })), structuredContent: { results } };
    },
  );
  server.registerTool(
    "huge",
    {
      description:
        "Returns a result of the given size: one text block of `chars` characters (`kind` text), or that many characters split into 1,000-character blocks (`kind` blocks)",
      inputSchema: z.object({ chars: z.number().int().min(1).max(200_000_000), kind: z.enum(["text", "blocks"]).optional() }),
      annotations: { readOnlyHint: true },
    },
    async ({ chars, kind }) => ({ content: hugeContent(chars, kind) }),
  );
  server.registerTool(
    "weather",
    {
      description: "Structured weather; `broken` returns content that breaks the output schema",
      inputSchema: z.object({ broken: z.boolean().optional() }),
      outputSchema: z.object({ temperature: z.number(), conditions: z.string() }),
    },
    async ({ broken }) => {
      const data = broken ? { temperature: "warm", conditions: 3 } : { temperature: 21.5, conditions: "Sunny" };
      return { ...text(JSON.stringify(data)), structuredContent: data };
    },
  );
  // A question to the person: on 2026-07-28 the call answers input_required; the client asks and
  // sends the call again with the answer.
  server.registerTool(
    "ask",
    { description: "Asks the person a question with every kind of field, and returns the answer", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "about");
      if (answer.kind === "missing")
        return inputRequired({ inputRequests: { about: inputRequired.elicit({ message: "Tell me about you.", requestedSchema: EVERY_KIND }) } });
      if (answer.kind !== "elicit") return { isError: true, ...text("Unexpected answer.") };
      return text(`Answer: ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
    },
  );
  server.registerTool("ask_url", { description: "Asks the person to open a URL", inputSchema: z.object({ url: z.string() }) }, async ({ url }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "signin");
    if (answer.kind === "missing")
      return inputRequired({ inputRequests: { signin: inputRequired.elicitUrl({ message: "Sign in to the billing system.", url }) } });
    return text(`URL answer: ${answer.kind === "elicit" ? answer.action : answer.kind}`);
  });
  server.registerTool(
    "image",
    { description: "Returns a small PNG image and a caption", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async () => ({
      content: [
        { type: "text", text: "A red dot." },
        { type: "image", data: RED_DOT, mimeType: "image/png" },
      ],
    }),
  );
  for (let i = 1; i <= state.added; i++) {
    server.registerTool(`added_${i}`, { description: `Tool number ${i} added at run time`, inputSchema: z.object({}) }, async () => text(`added_${i} ran`));
  }
  server.registerTool("add_tool", { description: "Adds a new tool to this server's list", inputSchema: z.object({}) }, async () => {
    state.added += 1;
    notify.toolsChanged();
    return text(`Added added_${state.added}.`);
  });
  server.registerTool("bump", { description: "Changes the counter resource", inputSchema: z.object({}) }, async () => {
    state.counter += 1;
    notify.resourceUpdated("test://notes/counter");
    return text(`Counter is ${state.counter}.`);
  });
  registerTestResources(server, ResourceTemplate, () => state.counter);
  server.registerPrompt(
    "review",
    { title: "Review code", description: "Asks for a code review", argsSchema: z.object({ language: z.string(), focus: z.string().optional() }) },
    ({ language, focus }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review this ${language} code${focus ? `, focusing on ${focus}` : ""}.` } }],
    }),
  );
  server.registerTool(
    "show_card",
    {
      title: "Show card",
      description: "Shows a card with the text in an interactive view",
      inputSchema: z.object({ text: z.string() }),
      _meta: { ui: { resourceUri: "ui://parley-test/card.html" } },
    },
    async ({ text: t }) => text(`Card: ${t}`),
  );
  server.registerTool(
    "card_stamp",
    {
      description: "Stamps a note (for the card's view only)",
      inputSchema: z.object({ note: z.string() }),
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: "ui://parley-test/card.html", visibility: ["app"] } },
    },
    async ({ note }) => text(`Stamped: ${note}`),
  );
  server.registerTool(
    "app_not_html",
    { description: "A view that is not a page", inputSchema: z.object({}), _meta: { ui: { resourceUri: "ui://parley-test/plain.txt" } } },
    async () => text("plain"),
  );
  server.registerTool(
    "app_huge",
    { description: "A view too large to show", inputSchema: z.object({}), _meta: { ui: { resourceUri: "ui://parley-test/huge.html" } } },
    async () => text("huge"),
  );
  server.registerTool(
    "app_not_ui",
    { description: "Declares a view that is not ui://", inputSchema: z.object({}), _meta: { ui: { resourceUri: "test://readme" } } },
    async () => text("not ui"),
  );
  return server;
}

if (argv.includes("--stdio")) {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(makeServer, { legacy: "reject" });
} else {
  const handler = createMcpHandler(makeServer, { legacy: "reject" });
  notify = handler.notify;
  const node = toNodeHandler(handler);
  const host = opt("host") ?? "127.0.0.1";
  const httpServer = http.createServer((req, res) => (req.url?.startsWith("/mcp") ? node(req, res) : res.writeHead(404).end("not found")));
  httpServer.listen(Number(opt("port") ?? 0), host, () => console.log(`http://${host}:${httpServer.address().port}/mcp`));
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
}
