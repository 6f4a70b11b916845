// A stored message of any size renders: 20 million characters of answer (one line, which overflowed
// the markdown parser's stack and took the chat page down), of reasoning and of tool output render
// collapsed with their size, without the text in the page until it is opened.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { MessageItem } from "./message-item";

const twentyMb = "x".repeat(20_000_000);

describe("a message with 20 million characters in each part", () => {
  it("renders every part collapsed with its size, and leaves the text out of the page", () => {
    const message: ParleyUIMessage = {
      id: "m1",
      role: "assistant",
      metadata: { status: "done" },
      parts: [
        { type: "reasoning", text: twentyMb, state: "done" },
        { type: "text", text: twentyMb, state: "done" },
        {
          type: "dynamic-tool",
          toolName: "big__huge",
          toolCallId: "c1",
          state: "output-available",
          input: { chars: 20_000_000 },
          output: { content: [{ type: "text", text: twentyMb }] },
        },
        {
          type: "dynamic-tool",
          toolName: "big__json",
          toolCallId: "c2",
          state: "output-available",
          input: {},
          output: { rows: Array.from({ length: 200_000 }, (_, i) => ({ i, v: "value" })) },
        },
      ],
    };
    const html = renderToString(createElement(MessageItem, { message })).replaceAll("<!-- -->", "");
    expect(html).toContain("Long reasoning: 20.0 million characters");
    expect(html).toContain("Long answer: 20.0 million characters");
    expect(html).toContain("Long text: 20.0 million characters");
    expect(html).toMatch(/Result: \d+\.\d million characters/);
    expect(html.length).toBeLessThan(100_000);
  });

  it("still renders ordinary text as markdown", () => {
    const message: ParleyUIMessage = {
      id: "m2",
      role: "assistant",
      metadata: { status: "done" },
      parts: [{ type: "text", text: "Some **bold** words.", state: "done" }],
    };
    const html = renderToString(createElement(MessageItem, { message }));
    // Streamdown's strong element: the markdown was parsed, not printed as typed.
    expect(html).toMatch(/<span[^>]*data-streamdown="strong"[^>]*>bold<\/span>/);
    expect(html).not.toContain("**");
  });
});

describe("an answer citing knowledge passages", () => {
  it("turns each [n] the model wrote for a cited passage into that citation's mark, and leaves other brackets alone", () => {
    const url = "/knowledge/documents/d1?v=1&from=120&to=180";
    const message: ParleyUIMessage = {
      id: "m2",
      role: "assistant",
      metadata: { status: "done", citations: [{ n: 1, url, title: "handbook.pdf, page 2", origin: "knowledge" }] },
      parts: [{ type: "text", text: "Leave lasts sixteen weeks [1]; see also [7] and [1](https://example.com/).", state: "done" }],
    };
    const html = renderToString(createElement(MessageItem, { message }));
    expect(html).toContain('aria-label="Source 1: handbook.pdf, page 2"');
    expect(html).toContain(`href="${url.replaceAll("&", "&amp;")}"`);
    expect(html).toContain("[7]");
    expect(html).toContain("Team knowledge");
  });
});
