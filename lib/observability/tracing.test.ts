// Traces of a real turn (aimock as the model, server-everything as the MCP server): with an in-memory
// exporter, the turn's span holds the AI SDK's GenAI spans (@ai-sdk/otel: the run, a step each with
// its model call, the tool call) and the MCP request's span, with GenAI attributes and without any
// message text or tool argument; and once through OTLP/HTTP to a receiver on loopback, configured as
// an operator would (OTEL_EXPORTER_OTLP_ENDPOINT). Without tracing, a turn records nothing. A failed
// turn's span has status ERROR; the turn that goes on after a decision links to the span of the turn
// that asked.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callTool, closeAll } from "../mcp/pool";
import { httpConfig, startEverything, type RunningServer } from "@/test/support/test-servers";
import { readChunks, teamWithProvider, textOf } from "@/test/support/test-turns";
import { runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { startOtlpTracing, startTracing, stopTracing, tracingEnabled } from "./tracing";

let mock: LLMock;
let everything: RunningServer;
turnHarness((m) => (mock = m));
beforeAll(async () => {
  everything = await startEverything();
}, 60_000);
afterAll(async () => {
  await stopTracing();
  await closeAll();
  await everything?.stop();
});

const SECRET_QUESTION = "please echo the words violet-otter-42";
const SECRET_ARG = "violet-otter-42";

/** A turn whose model calls `echo`, a built-in tool that asks server-everything over MCP. */
async function echoTurn(question: string) {
  mock.addFixture({
    match: { userMessage: question, hasToolResult: false },
    response: { toolCalls: [{ name: "echo", arguments: JSON.stringify({ message: SECRET_ARG }), id: "call_otel" }] },
  });
  mock.addFixture({ match: { userMessage: question, hasToolResult: true }, response: { content: "Echoed." } });
  const echo = tool({
    description: "Echoes a message through the MCP server",
    inputSchema: z.object({ message: z.string() }),
    execute: async ({ message }) => {
      const res = await callTool(httpConfig(everything.url), "echo", { message }, { timeoutMs: 10_000 });
      return (res.content[0] as { text: string }).text;
    },
  });
  const { ctx, chat } = await teamWithProvider(mock.url);
  const done = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: question }, { tools: { echo }, onStored: done.onStored }));
  await done.promise;
  return chunks;
}

const attrs = (s: ReadableSpan) => s.attributes as Record<string, unknown>;

describe("spans of a turn", () => {
  it("runs a turn untraced while tracing is off", async () => {
    expect(tracingEnabled()).toBe(false);
    const chunks = await echoTurn("untraced echo");
    expect(textOf(chunks)).toBe("Echoed.");
  });

  it("records the turn, the model run, each step's model call, the tool call and the MCP request, without message text", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing([new SimpleSpanProcessor({ exporter })]);
    try {
      const chunks = await echoTurn(SECRET_QUESTION);
      expect(textOf(chunks)).toBe("Echoed.");
      const spans = exporter.getFinishedSpans();
      const byName = (n: string) => spans.filter((s) => s.name === n);
      const turn = spans.find((s) => s.name === "parley.turn")!;
      expect(attrs(turn)).toMatchObject({ "gen_ai.request.model": "gpt-test", "parley.turn.status": "done" });
      const run = byName("invoke_agent parley.turn");
      expect(run).toHaveLength(1);
      expect(run[0].parentSpanContext?.spanId).toBe(turn.spanContext().spanId);
      expect(attrs(run[0])["gen_ai.operation.name"]).toBe("invoke_agent");
      // Two steps: the tool call, then the answer; each one model call with GenAI usage attributes.
      const steps = spans.filter((s) => s.name.startsWith("step "));
      expect(steps).toHaveLength(2);
      for (const s of steps) expect(s.parentSpanContext?.spanId).toBe(run[0].spanContext().spanId);
      const calls = byName("chat gpt-test");
      expect(calls).toHaveLength(2);
      for (const c of calls) {
        expect(steps.map((s) => s.spanContext().spanId)).toContain(c.parentSpanContext?.spanId);
        expect(attrs(c)).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-test", "gen_ai.provider.name": expect.any(String) });
        expect(attrs(c)["gen_ai.usage.input_tokens"]).toEqual(expect.any(Number));
      }
      const call = byName("execute_tool echo");
      expect(call).toHaveLength(1);
      expect(attrs(call[0])).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "echo" });
      const mcp = byName("tools/call echo");
      expect(mcp).toHaveLength(1);
      expect(mcp[0].parentSpanContext?.spanId).toBe(call[0].spanContext().spanId);
      expect(attrs(mcp[0])).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "echo" });
      // Every span is in the turn's trace, and none holds the question, the tool's argument or its result.
      expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
      const text = JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events]));
      expect(text).not.toContain(SECRET_ARG);
      expect(text).not.toContain("Echo: ");
      expect(text).not.toContain("sk-test");
    } finally {
      await stopTracing();
    }
  });

  it("exports the spans over OTLP/HTTP to the endpoint an operator sets", async () => {
    const received: {
      resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { spans: { name: string }[] }[] }[];
    }[] = [];
    let wake = () => {};
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        if (req.url === "/v1/traces" && req.headers["content-type"]?.startsWith("application/json")) received.push(JSON.parse(body));
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
        wake();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    process.env.OTEL_SERVICE_NAME = "parley-otlp-test";
    process.env.OTEL_BSP_SCHEDULE_DELAY = "50";
    try {
      expect(await startOtlpTracing()).toBe(true);
      await echoTurn("echo over otlp");
      const names = () => received.flatMap((r) => r.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => s.name))));
      while (!names().includes("parley.turn")) await new Promise<void>((r) => (wake = r));
      expect(names()).toEqual(
        expect.arrayContaining(["parley.turn", "invoke_agent parley.turn", "step 1", "chat gpt-test", "execute_tool echo", "tools/call echo"]),
      );
      const service = received[0].resourceSpans[0].resource.attributes.find((a) => a.key === "service.name");
      expect(service?.value.stringValue).toBe("parley-otlp-test");
    } finally {
      await stopTracing();
      delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
      delete process.env.OTEL_SERVICE_NAME;
      delete process.env.OTEL_BSP_SCHEDULE_DELAY;
      receiver.close();
    }
  }, 60_000);
});

describe("a turn's span across failures and approvals", () => {
  it("a failed turn's span has status ERROR", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing([new SimpleSpanProcessor({ exporter })]);
    try {
      mock.onMessage("boom traced", { error: { message: "upstream exploded", type: "server_error" }, status: 500 });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "boom traced" }, { onStored: done.onStored }));
      expect((await done.promise).status).toBe("error");
      const turn = exporter.getFinishedSpans().find((s) => s.name === "parley.turn")!;
      expect(attrs(turn)["parley.turn.status"]).toBe("error");
      expect(turn.status.code).toBe(SpanStatusCode.ERROR);
    } finally {
      await stopTracing();
    }
  });

  it("the turn that goes on after an approval links to the span of the turn that asked", async () => {
    const exporter = new InMemorySpanExporter();
    startTracing([new SimpleSpanProcessor({ exporter })]);
    try {
      const word = "traced approval";
      mock.addFixture({
        match: { userMessage: word, hasToolResult: false },
        response: { toolCalls: [{ name: "delete_file", arguments: JSON.stringify({ path: "/tmp/t.txt" }), id: "call_traced" }] },
      });
      mock.addFixture({ match: { userMessage: word, hasToolResult: true }, response: { content: "Deleted." } });
      const del = tool({
        description: "Deletes a file",
        inputSchema: z.object({ path: z.string() }),
        needsApproval: true,
        execute: async () => ({ ok: true }),
      });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const asked = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: word }, { tools: { delete_file: del }, onStored: asked.onStored }));
      await asked.promise;
      const approvalId = String((chunks.find((c) => c.type === "tool-approval-request") as { approvalId?: string } | undefined)?.approvalId);
      const went = storedTurn();
      const after = await readChunks(
        await runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools: { delete_file: del }, onStored: went.onStored }),
      );
      await went.promise;
      expect(textOf(after)).toBe("Deleted.");
      const turns = exporter.getFinishedSpans().filter((s) => s.name === "parley.turn");
      expect(turns).toHaveLength(2);
      const [asking, continuing] = turns;
      expect(continuing.links.map((l) => l.context.spanId)).toEqual([asking.spanContext().spanId]);
      expect(continuing.links[0].context.traceId).toBe(asking.spanContext().traceId);
    } finally {
      await stopTracing();
    }
  });
});
