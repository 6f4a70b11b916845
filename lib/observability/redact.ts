// What leaves the process in a trace: every span (Parley's, the AI SDK's, Next.js's own HTTP and page
// spans, any instrumentation scope) passes through `redactingExporter` before the OTLP exporter sees
// it. Addresses lose their query string (search terms, `next=` with an invite path) and the secret
// segment of token paths (`/reset/<token>`, `/invite/<token>`), in the span's name, its attributes and
// its events' attributes. Route patterns such as `/reset/[token]` stay as they are.
import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace";

export const REDACTED = "[redacted]";

/** Path segments that are secrets: the one after each of these. */
const TOKEN_PATHS = ["reset", "invite"];
const TOKEN_SEGMENT = new RegExp(`(/(?:${TOKEN_PATHS.join("|")})/)(?!\\[)[^/?#\\s"']+`, "gi");
// The same, percent-encoded inside another address's query (`next=%2Finvite%2F<token>`).
const ENCODED_TOKEN_SEGMENT = new RegExp(`(%2F(?:${TOKEN_PATHS.join("|")})%2F)[^&#\\s"'%]+`, "gi");
// A query string: `?` followed by something that is not a space (a sentence's "?" stays).
const QUERY = /\?[^\s"'#]+/g;
/** Attributes that hold nothing but a query string. */
const QUERY_KEYS = new Set(["url.query", "http.query"]);

/** A text with its addresses' query strings and token segments replaced. */
export function redactText(text: string): string {
  return text.replace(ENCODED_TOKEN_SEGMENT, `$1${REDACTED}`).replace(TOKEN_SEGMENT, `$1${REDACTED}`).replace(QUERY, `?${REDACTED}`);
}

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === "string") return redactText(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? redactText(v) : v)) as AttributeValue;
  return value;
}

export function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = QUERY_KEYS.has(key) && value ? REDACTED : redactValue(value);
  return out;
}

/** A copy of the span with its name, attributes and events' attributes redacted. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  return {
    name: redactText(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message ? { ...span.status, message: redactText(span.status.message) } : span.status,
    attributes: redactAttributes(span.attributes),
    links: span.links.map((l) => (l.attributes ? { ...l, attributes: redactAttributes(l.attributes) } : l)),
    events: span.events.map((e) => ({ ...e, name: redactText(e.name), attributes: e.attributes && redactAttributes(e.attributes) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Wraps an exporter so that it only ever sees redacted spans. */
export function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]) => inner.export(spans.map(redactSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: inner.forceFlush ? () => inner.forceFlush!() : undefined,
  };
}
