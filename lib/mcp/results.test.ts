// What a tool result becomes when it is larger than Parley keeps: cut in order, never mid image or
// mid surrogate pair, marked, and the model's text says how much it got.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { capResult, errorText, MAX_MODEL_CHARS, resultText } from "./results";

const text = (n: number, c = "a") => ({ type: "text" as const, text: c.repeat(n) });
const size = (v: unknown) => JSON.stringify(v).length;

describe("capResult", () => {
  it("returns a result within the limit as it is (the same object)", () => {
    const r: CallToolResult = { content: [text(100)], structuredContent: { a: 1 } };
    expect(capResult(r, 10_000)).toBe(r);
  });

  it("cuts one long text block to the limit and says how large the result was", () => {
    const r: CallToolResult = { content: [text(5_000_000)] };
    const out = capResult(r, 100_000);
    expect(size(out)).toBeLessThanOrEqual(100_000);
    expect((out.content[0] as { text: string }).text.length).toBeGreaterThan(90_000);
    expect(out.parleyTruncated).toEqual({
      receivedChars: size(r),
      keptChars: size({ ...out, parleyTruncated: undefined }),
      droppedBlocks: 0,
      droppedStructured: false,
    });
  });

  it("keeps whole blocks in order, cuts the one that crosses the limit and drops the rest", () => {
    const r: CallToolResult = { content: Array.from({ length: 100 }, (_, i) => text(1000, String(i % 10))) };
    const out = capResult(r, 20_500);
    expect(size(out)).toBeLessThanOrEqual(20_500);
    const kept = out.content as { text: string }[];
    expect(kept.slice(0, -1).every((b, i) => b.text === String(i % 10).repeat(1000))).toBe(true);
    expect(kept.at(-1)!.text.endsWith("…")).toBe(true);
    expect(out.parleyTruncated!.droppedBlocks).toBe(100 - kept.length);
  });

  it("leaves out an image that does not fit (never half an image) but keeps later blocks that do; structured content only whole", () => {
    const r: CallToolResult = {
      content: [{ type: "image", data: "A".repeat(50_000), mimeType: "image/png" }, text(10)],
      structuredContent: { big: "x".repeat(50_000) },
    };
    const out = capResult(r, 10_000);
    expect(out.content).toEqual([text(10)]);
    expect(out.structuredContent).toBeUndefined();
    expect(out.parleyTruncated).toMatchObject({ receivedChars: size(r), droppedBlocks: 1, droppedStructured: true });
  });

  it("does not split a surrogate pair or let JSON escapes push it over the limit", () => {
    for (const unit of ["😀", "\n", '"']) {
      const out = capResult({ content: [{ type: "text", text: unit.repeat(200_000) }] }, 50_000);
      expect(size(out)).toBeLessThanOrEqual(50_000);
      expect((out.content[0] as { text: string }).text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });
});

describe("what the model reads", () => {
  it("a cut result ends with a marker naming the size the tool returned", () => {
    const r: CallToolResult = { content: [text(300_000)] };
    const out = capResult(r, 200_000);
    const t = resultText(out);
    expect(t).toMatch(/\[TRUNCATED: the tool returned 300,0\d\d characters; this is only the first part \(\d{3},\d{3} characters\)/);
  });

  it("text over the model's share is cut and marked even when the stored result was whole", () => {
    const t = resultText({ content: [text(MAX_MODEL_CHARS + 5)] });
    expect(t.startsWith("a".repeat(MAX_MODEL_CHARS))).toBe(true);
    expect(t).toContain(`[TRUNCATED: the tool returned ${(MAX_MODEL_CHARS + 5).toLocaleString("en")} characters`);
  });

  it("a small result is passed as it is, and an error's text is bounded", () => {
    expect(resultText({ content: [text(5)] })).toBe("aaaaa");
    expect(errorText({ content: [text(1_000_000)], isError: true }).length).toBeLessThan(10_100);
  });
});
