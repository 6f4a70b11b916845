// OpenTelemetry traces, exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter
// reads the standard OTEL_EXPORTER_OTLP_* variables itself). Without it nothing is registered: the
// API's tracer is a no-op, the AI SDK's telemetry is off, and a turn pays nothing for tracing.
//
// What a turn records: the turn span (`parley.turn`, with the chat, the model asked for and the
// outcome), inside it the AI SDK's GenAI spans from @ai-sdk/otel (GenAI semantic conventions):
// `invoke_agent parley.turn` for the run, a `step n` span per step holding one `chat <model>` span
// per model call (gen_ai.request.model, gen_ai.provider.name, gen_ai.usage.*) and an
// `execute_tool <tool>` span per tool call, and an MCP span per tools/call request (lib/mcp/pool.ts)
// inside that. Inputs and outputs are never recorded: no message text, tool arguments or results, and
// no secrets. The SDK's integration is passed per call (aiTelemetry), never registered globally, so
// calls that do not ask for it (titles, repairs) record nothing.
import {
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { OpenTelemetry } from "@ai-sdk/otel";
import { BatchSpanProcessor, TracerProvider, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace";
import type { TelemetryOptions } from "ai";
import { config } from "../config";
import { redactingExporter } from "./redact";

export const TRACER_NAME = "parley";
/** The name of a turn's span (also the AI SDK's functionId: its run span is `invoke_agent parley.turn`). */
export const TURN_SPAN = "parley.turn";

const KEY = Symbol.for("parley.tracing");
const holder = globalThis as { [KEY]?: { provider: TracerProvider; ai: OpenTelemetry } };

/** True once a tracer provider is registered (OTLP configured, or a test's in-memory exporter). */
export function tracingEnabled(): boolean {
  return !!holder[KEY];
}

/** Registers a tracer provider that sends spans to these processors (the app's: OTLP; tests: in memory). */
export function startTracing(processors: SpanProcessor[], serviceName = "parley"): TracerProvider {
  const provider = new TracerProvider({ resource: resourceFromAttributes({ "service.name": serviceName }), spanProcessors: processors });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  // The AI SDK's spans, on this provider's tracer (a later provider gets its own integration).
  holder[KEY] = { provider, ai: new OpenTelemetry({ tracer: provider.getTracer("ai"), agentSpanName: "functionId" }) };
  return provider;
}

/** Flushes and unregisters (tests, shutdown). */
export async function stopTracing(): Promise<void> {
  const h = holder[KEY];
  if (!h) return;
  delete holder[KEY];
  await h.provider.shutdown();
  trace.disable();
  context.disable();
}

/** At start-up: OTLP/HTTP export when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise nothing. */
export async function startOtlpTracing(): Promise<boolean> {
  if (!config().OTEL_EXPORTER_OTLP_ENDPOINT || tracingEnabled()) return false;
  const { OTLPTraceExporter } = await import("@opentelemetry/exporter-trace-otlp-http");
  // Every span, Next.js's own included, is redacted before it leaves (redact.ts).
  const exporter: SpanExporter = redactingExporter(new OTLPTraceExporter());
  startTracing([new BatchSpanProcessor({ exporter })], config().OTEL_SERVICE_NAME);
  return true;
}

/**
 * The AI SDK's telemetry settings for a turn: the GenAI spans of @ai-sdk/otel while tracing is on,
 * never with inputs or outputs; off otherwise (which also silences the SDK's tracing-channel events).
 */
export function aiTelemetry(functionId: string): TelemetryOptions {
  const h = holder[KEY];
  return h ? { integrations: [h.ai], recordInputs: false, recordOutputs: false, functionId } : { isEnabled: false };
}

/**
 * Starts a turn's span (a no-op span when tracing is off) and the context the turn's work runs in.
 * `follows`: the span of the turn this one continues (the one that asked for approval), linked.
 */
export function startTurnSpan(a: { model: string; provider: string; chatId: string; follows?: SpanContext }): { span: Span; ctx: Context } {
  if (!tracingEnabled()) return { span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT), ctx: context.active() };
  const links: Link[] = a.follows ? [{ context: a.follows, attributes: { "parley.link": "continues" } }] : [];
  // Not a GenAI operation itself (the SDK's `chat <model>` spans are the model calls): no gen_ai.operation.name.
  const span = trace.getTracer(TRACER_NAME).startSpan(TURN_SPAN, {
    attributes: { "gen_ai.request.model": a.model, "gen_ai.provider.name": a.provider, "parley.chat.id": a.chatId },
    links,
  });
  return { span, ctx: trace.setSpan(context.active(), span) };
}

/** A turn's span context as stored with its answer (Message.metadata.trace), so a continuation can link to it. */
export type StoredTrace = { traceId: string; spanId: string; traceFlags: number };

/** The span's context to store, or undefined when it is not recorded (tracing off). */
export function traceToStore(span: Span): StoredTrace | undefined {
  const c = span.spanContext();
  return isSpanContextValid(c) && span.isRecording() ? { traceId: c.traceId, spanId: c.spanId, traceFlags: c.traceFlags } : undefined;
}

/** The stored span context of an answer's metadata, when it holds a valid one. */
export function storedTraceOf(metadata: unknown): SpanContext | undefined {
  const t = (metadata as { trace?: Partial<StoredTrace> } | null)?.trace;
  if (!t || typeof t.traceId !== "string" || typeof t.spanId !== "string") return undefined;
  const c: SpanContext = { traceId: t.traceId, spanId: t.spanId, traceFlags: typeof t.traceFlags === "number" ? t.traceFlags : 1, isRemote: true };
  return isSpanContextValid(c) ? c : undefined;
}

/** Marks a turn's span as failed (status ERROR), with what ended it. */
export function failTurnSpan(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
