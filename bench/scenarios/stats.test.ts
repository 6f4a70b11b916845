// The figures every table is made of: percentiles (cut streams as Infinity) and which streams count as behind.
import { describe, expect, it } from "vitest";
import type { StreamResult } from "../harness/http";
import { percentile, summarize } from "./stats";

const stream = (over: Partial<StreamResult>): StreamResult => ({
  status: 200,
  ttft: 100,
  total: 1000,
  firstAt: 100,
  lastAt: 1000,
  chunks: 10,
  chars: 40,
  firstChars: 4,
  sentEpoch: 1,
  cut: false,
  ...over,
});

describe("bench statistics", () => {
  it("interpolates percentiles, ignores NaN and keeps a cut stream at the top as cut", () => {
    expect(percentile([3, 1, 2, NaN], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([1, Infinity], 1)).toBe(Infinity);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it("counts behind: failed, cut, short, or slower than the reference allows", () => {
    const results = [
      stream({}),
      stream({ total: 1300 }), // 30% over a reference of 1000
      stream({ cut: true }),
      stream({ chars: 20 }),
      stream({ status: 503, error: "HTTP 503", chunks: 0, chars: 0 }),
    ];
    const s = summarize(results, 1000, 40, 4, 25);
    expect(s.behind).toBe(4);
    expect(s).toMatchObject({ n: 5, cut: 1, short: 1, errors: 1, busy: 1, upChunks: 10 + 10 + 10 + 5 });
    expect(s.totalMax).toBe(Infinity);
    // chars/s between the first and the last chunk, without the first chunk's characters
    expect(s.rate50).toBeCloseTo((36 * 1000) / 900);
  });
});
