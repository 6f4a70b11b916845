// Spans as Next.js's HTTP instrumentation writes them (another instrumentation scope than Parley's),
// through the redacting exporter: the exporter behind it never sees a token path segment, a query
// string or a search term, in the span's name, attributes or events; route patterns and the rest stay.
import { trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace";
import { afterEach, describe, expect, it } from "vitest";
import { redactingExporter, redactText } from "./redact";
import { startTracing, stopTracing } from "./tracing";

afterEach(() => stopTracing());

describe("redacting exported spans", () => {
  it("removes tokens, query strings and search terms from every span of any scope", async () => {
    const inner = new InMemorySpanExporter();
    startTracing([new SimpleSpanProcessor({ exporter: redactingExporter(inner) })]);
    const span = trace.getTracer("next.js", "16.0.0").startSpan("GET /reset/tok-abc123", {
      attributes: {
        "http.target": "/sign-in?next=%2Finvite%2Finv-def456",
        "http.url": "http://localhost:3000/search?q=violet+otter",
        "url.full": "http://localhost:3000/invite/inv-def456?x=1",
        "url.path": "/reset/tok-abc123",
        "url.query": "q=violet+otter",
        "next.route": "/reset/[token]",
        "http.method": "GET",
        "http.status_code": 200,
      },
    });
    span.addEvent("redirect", { location: "/invite/inv-def456" });
    span.end();
    const [out] = inner.getFinishedSpans();
    const text = JSON.stringify([out.name, out.attributes, out.events]);
    for (const secret of ["tok-abc123", "inv-def456", "violet", "otter", "x=1"]) expect(text).not.toContain(secret);
    expect(out.name).toBe("GET /reset/[redacted]");
    expect(out.attributes).toMatchObject({
      "http.target": "/sign-in?[redacted]",
      "http.url": "http://localhost:3000/search?[redacted]",
      "url.full": "http://localhost:3000/invite/[redacted]?[redacted]",
      "url.path": "/reset/[redacted]",
      "url.query": "[redacted]",
      "next.route": "/reset/[token]",
      "http.method": "GET",
      "http.status_code": 200,
    });
    expect(out.instrumentationScope.name).toBe("next.js");
    expect(out.spanContext().traceId).toBe(span.spanContext().traceId);
  });

  it("leaves text without an address alone", () => {
    expect(redactText("chat gpt-4o")).toBe("chat gpt-4o");
    expect(redactText("Is this right?")).toBe("Is this right?");
    expect(redactText("render route (app) /invite/[token]")).toBe("render route (app) /invite/[token]");
  });
});
