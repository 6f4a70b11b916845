// What a person is told when talking to an MCP server fails: the kind once, then why.
import { describe, expect, it } from "vitest";
import { classifyFailure, McpFailure } from "./failures";

describe("classifyFailure", () => {
  it("a network error is Unreachable, with the cause", () => {
    const err = new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    const failure = classifyFailure(err);
    expect(failure.kind).toBe("unreachable");
    expect(failure.message).toBe("Unreachable: fetch failed: read ECONNRESET");
  });

  it("a failure already classified and wrapped by someone else keeps its text: the kind is not said twice", () => {
    const inner = new McpFailure("unreachable", "fetch failed: read ECONNRESET");
    const failure = classifyFailure(new Error(inner.message, { cause: inner }));
    expect(failure).toBe(inner);
    expect(failure.message).toBe("Unreachable: fetch failed: read ECONNRESET");
  });
});
