#!/usr/bin/env node
// A small MCP server of ours for the failure cases a real server rarely shows on demand: a tool that
// hangs, one that crashes the server mid-call, one that returns isError, one that changes the tool
// list (notifications/tools/list_changed), slow progress, search-like results with URLs, and results
// of any size (huge). For issue 15: questions to the person (a form with every field kind, a URL, one
// asked and never answered), an image, structured content that breaks its output schema, resources
// (text, image, huge, a template, one that changes and can be subscribed to) and prompts. MCP Apps: a tool with a ui:// view (e2e/mcp-app-page.mjs),
// one the view may call (app only), and views that are not pages, too large, or not ui:// at all.
// Usage: node e2e/mcp-test-server.mjs --port 4331 [--host 127.0.0.1] [--hang]   (Streamable HTTP on /mcp)
//        node e2e/mcp-test-server.mjs --stdio
// --hang accepts connections and never answers (a server that is up but stuck).
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { EVERY_KIND, hugeContent, RED_DOT, registerTestResources, searchResults } from "./mcp-test-data.mjs";

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const flag = (name) => argv.includes(`--${name}`);

let counter = 0;

function makeServer() {
  const server = new McpServer(
    { name: "parley-test-server", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } },
  );
  // resources/subscribe (2025): this session hears when a resource it subscribed to changes (`bump`).
  const subscribed = new Set();
  server.server.setRequestHandler(SubscribeRequestSchema, async (req) => (subscribed.add(req.params.uri), {}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => (subscribed.delete(req.params.uri), {}));
  server.registerTool("bump", { description: "Changes the counter resource", inputSchema: {} }, async () => {
    counter += 1;
    if (subscribed.has("test://notes/counter")) await server.server.sendResourceUpdated({ uri: "test://notes/counter" });
    return { content: [{ type: "text", text: `Counter is ${counter}.` }] };
  });
  server.registerTool(
    "echo",
    { title: "Echo", description: "Echoes back the message", inputSchema: { message: z.string() }, annotations: { readOnlyHint: true } },
    async ({ message }) => ({ content: [{ type: "text", text: `Echo: ${message}` }] }),
  );
  server.registerTool("hang", { description: "Never answers", inputSchema: {} }, () => new Promise(() => {}));
  server.registerTool("crash", { description: "Ends the server process in the middle of the call", inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 20);
    return new Promise(() => {});
  });
  server.registerTool("fail", { description: "Returns an error result", inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: "text", text: "The widget is out of stock." }],
  }));
  server.registerTool(
    "slow_progress",
    { description: "Reports progress in steps", inputSchema: { steps: z.number().int().min(1).max(50), stepMs: z.number().int().min(1).max(5000) } },
    async ({ steps, stepMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await new Promise((r) => setTimeout(r, stepMs));
        if (token !== undefined) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress: i, total: steps, message: `step ${i} of ${steps}` },
          });
        }
      }
      return { content: [{ type: "text", text: `Finished ${steps} steps.` }] };
    },
  );
  server.registerTool(
    "search",
    {
      description: "Search-like results with URLs",
      inputSchema: { q: z.string() },
      outputSchema: { results: z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string() })) },
    },
    async ({ q }) => {
      const results = searchResults(q);
      return { content: [{ type: "text", text: JSON.stringify({ results }) }], structuredContent: { results } };
    },
  );
  server.registerTool(
    "huge",
    {
      description:
        "Returns a result of the given size: one text block of `chars` characters (`kind` text), or that many characters split into 1,000-character blocks (`kind` blocks)",
      inputSchema: { chars: z.number().int().min(1).max(200_000_000), kind: z.enum(["text", "blocks"]).optional() },
      annotations: { readOnlyHint: true },
    },
    async ({ chars, kind }) => ({ content: hugeContent(chars, kind) }),
  );
  server.registerTool(
    "ask",
    { description: "Asks the person a question with every kind of field, and returns the answer", inputSchema: {} },
    async (_args, extra) => {
      const answer = await extra.sendRequest(
        { method: "elicitation/create", params: { message: "Tell me about you.", requestedSchema: EVERY_KIND } },
        ElicitResultSchema,
      );
      return { content: [{ type: "text", text: `Answer: ${answer.action} ${JSON.stringify(answer.content ?? {})}` }] };
    },
  );
  server.registerTool("ask_url", { description: "Asks the person to open a URL", inputSchema: { url: z.string() } }, async ({ url }, extra) => {
    const answer = await extra.sendRequest(
      { method: "elicitation/create", params: { mode: "url", message: "Sign in to the billing system.", url, elicitationId: randomUUID() } },
      ElicitResultSchema,
    );
    return { content: [{ type: "text", text: `URL answer: ${answer.action}` }] };
  });
  server.registerTool("image", { description: "Returns a small PNG image and a caption", inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({
    content: [
      { type: "text", text: "A red dot." },
      { type: "image", data: RED_DOT, mimeType: "image/png" },
    ],
  }));
  server.registerTool(
    "weather",
    {
      description: "Structured weather; `broken` returns content that breaks the output schema",
      inputSchema: { broken: z.boolean().optional() },
      outputSchema: { temperature: z.number(), conditions: z.string() },
    },
    async ({ broken }) => {
      const data = broken ? { temperature: "warm", conditions: 3 } : { temperature: 21.5, conditions: "Sunny" };
      return { content: [{ type: "text", text: JSON.stringify(data) }], structuredContent: data };
    },
  );
  registerTestResources(server, ResourceTemplate, () => counter);
  server.registerPrompt(
    "review",
    { title: "Review code", description: "Asks for a code review", argsSchema: { language: z.string(), focus: z.string().optional() } },
    ({ language, focus }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review this ${language} code${focus ? `, focusing on ${focus}` : ""}.` } }],
    }),
  );
  // MCP Apps (SEP-1865): tools declare their view in _meta.ui.resourceUri; the view is a ui:// resource.
  server.registerTool(
    "show_card",
    {
      title: "Show card",
      description: "Shows a card with the text in an interactive view",
      inputSchema: { text: z.string() },
      _meta: { ui: { resourceUri: "ui://parley-test/card.html" } },
    },
    async ({ text }) => ({ content: [{ type: "text", text: `Card: ${text}` }] }),
  );
  server.registerTool(
    "card_stamp",
    {
      description: "Stamps a note (for the card's view only)",
      inputSchema: { note: z.string() },
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: "ui://parley-test/card.html", visibility: ["app"] } },
    },
    async ({ note }) => ({ content: [{ type: "text", text: `Stamped: ${note}` }] }),
  );
  server.registerTool(
    "app_not_html",
    { description: "A view that is not a page", inputSchema: {}, _meta: { ui: { resourceUri: "ui://parley-test/plain.txt" } } },
    async () => ({ content: [{ type: "text", text: "plain" }] }),
  );
  server.registerTool(
    "app_huge",
    { description: "A view too large to show", inputSchema: {}, _meta: { ui: { resourceUri: "ui://parley-test/huge.html" } } },
    async () => ({ content: [{ type: "text", text: "huge" }] }),
  );
  server.registerTool(
    "app_not_ui",
    { description: "Declares a view that is not ui://", inputSchema: {}, _meta: { ui: { resourceUri: "test://readme" } } },
    async () => ({ content: [{ type: "text", text: "not ui" }] }),
  );
  let added = 0;
  server.registerTool("add_tool", { description: "Adds a new tool to this server's list", inputSchema: {} }, async () => {
    added += 1;
    const name = `added_${added}`;
    server.registerTool(name, { description: `Tool number ${added} added at run time`, inputSchema: {} }, async () => ({
      content: [{ type: "text", text: `${name} ran` }],
    }));
    // registerTool sends notifications/tools/list_changed once the server is connected.
    return { content: [{ type: "text", text: `Added ${name}.` }] };
  });
  return server;
}

if (flag("stdio")) {
  await makeServer().connect(new StdioServerTransport());
} else {
  const port = Number(opt("port") ?? 0);
  const host = opt("host") ?? "127.0.0.1";
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    if (flag("hang")) return; // never answers
    if (!req.url?.startsWith("/mcp")) {
      res.writeHead(404).end("not found");
      return;
    }
    let body;
    if (req.method === "POST") {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }));
        return;
      }
    }
    const sid = req.headers["mcp-session-id"];
    let transport = typeof sid === "string" ? sessions.get(sid) : undefined;
    if (!transport) {
      if (sid || req.method !== "POST" || body?.method !== "initialize") {
        res
          .writeHead(404, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
        return;
      }
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(port, host, () => {
    const addr = httpServer.address();
    // The first line on stdout is the URL, for whoever started us.
    console.log(`http://${host}:${addr.port}/mcp`);
  });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
}
