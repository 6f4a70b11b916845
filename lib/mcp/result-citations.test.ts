// Which URLs in a tool result become citations (numbered sources under the answer).
import { describe, expect, it } from "vitest";
import { citationsFromResult } from "./result-citations";

describe("citationsFromResult", () => {
  it("takes http(s) resource links, not server-internal URIs", () => {
    const cites = citationsFromResult({
      content: [
        { type: "text", text: "Found these:" },
        { type: "resource_link", uri: "https://example.com/a", name: "a", title: "Page A", description: "About A" },
        { type: "resource_link", uri: "demo://resource/static/document/1", name: "internal" },
      ],
    });
    expect(cites).toEqual([{ url: "https://example.com/a", title: "Page A", snippet: "About A" }]);
  });

  it("finds search-like results in structured content and JSON text, once per URL", () => {
    const hits = [
      { title: "First", url: "https://one.example/x", snippet: "one" },
      { title: "Second", link: "https://two.example/" },
    ];
    const cites = citationsFromResult({ content: [{ type: "text", text: JSON.stringify({ results: hits }) }], structuredContent: { results: hits } });
    expect(cites).toEqual([
      { url: "https://one.example/x", title: "First", snippet: "one" },
      { url: "https://two.example/", title: "Second", snippet: undefined },
    ]);
  });

  it("ignores error results and plain text", () => {
    expect(citationsFromResult({ isError: true, content: [{ type: "resource_link", uri: "https://x.example", name: "x" }] })).toEqual([]);
    expect(citationsFromResult({ content: [{ type: "text", text: "see https://x.example" }] })).toEqual([]);
  });
});
