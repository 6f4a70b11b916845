// Compare mode's arithmetic: per figure the medians of A and B and the spread of the per-round ratios.
import { describe, expect, it } from "vitest";
import type { SuiteResult } from "../scenarios/context";
import { compareFigures } from "./report";

const suite = (ttft: number, directTtft: number, upChunks = 2000): SuiteResult => {
  const summary = { ttft50: ttft, toUpstream50: 10, total50: 1000, rate50: 900, upChunks };
  const direct = { ttft50: directTtft, toUpstream50: 2, total50: 950, rate50: 1000, upChunks: 2000 };
  const cpu = { wallMs: 1000, serverMs: 1400, serverSysMs: 100, dbMs: NaN, harnessMs: 50, machineMs: 1500, stealMs: 0 };
  return {
    kind: "pglite",
    target: "A",
    processes: 1,
    treeSize: 1,
    restarts: 0,
    bursts: new Map(),
    stored: [],
    writes: [],
    stream: { seq: summary, directSeq: direct, seqCpu: cpu, directCpu: cpu, relaySeq: direct, relayCpu: cpu, authFloor: 5 } as unknown as NonNullable<
      SuiteResult["stream"]
    >,
  };
};

describe("compare figures", () => {
  it("gives B/A per round, its median and its lowest and highest", () => {
    const rounds = [
      { a: suite(70, 50), b: suite(60, 50) }, // added 20 -> 10: 0.5
      { a: suite(80, 60), b: suite(75, 60) }, // added 20 -> 15: 0.75
      { a: suite(90, 50), b: suite(90, 50) }, // added 40 -> 40: 1
    ];
    const figures = compareFigures({ kind: "pglite", rounds });
    const added = figures.find((f) => f.figure === "TTFT added p50, ms")!;
    expect(added.a).toEqual([20, 20, 40]);
    expect(added.b).toEqual([10, 15, 40]);
    expect(added.ratios).toEqual([0.5, 0.75, 1]);
    expect(added).toMatchObject({ aMedian: 20, bMedian: 15, ratio: 0.75, ratioMin: 0.5, ratioMax: 1, diff: -5 });
    const cpu = figures.find((f) => f.figure === "server CPU us/upstream chunk, one stream")!;
    expect(cpu.aMedian).toBe(700); // 1400 ms over 2000 upstream chunks
    expect(cpu.ratio).toBe(1);
  });

  it("gives no ratio where a figure crosses zero, only the difference", () => {
    const rounds = [
      { a: suite(40, 50), b: suite(45, 50) }, // added -10 -> -5
      { a: suite(60, 50), b: suite(58, 50) }, // added 10 -> 8
    ];
    const added = compareFigures({ kind: "pglite", rounds }).find((f) => f.figure === "TTFT added p50, ms")!;
    expect(added.ratios).toEqual([]);
    expect(added.ratio).toBeNaN();
    expect(added.diffs).toEqual([5, -2]);
    expect(added.diff).toBe(1.5);
  });

  it("leaves out figures no round measured (CPU per chunk needs 1,000 upstream chunks)", () => {
    const rounds = [{ a: suite(70, 50, 900), b: suite(60, 50, 900) }];
    const names = compareFigures({ kind: "pglite", rounds }).map((f) => f.figure);
    expect(names).toContain("TTFT p50, ms");
    expect(names).not.toContain("server CPU us/upstream chunk, one stream");
  });
});
