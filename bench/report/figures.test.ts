// The flat figures of a run: a burst's figures set against the bare relay's at the same size.
import { describe, expect, it } from "vitest";
import type { BurstFigures, SuiteResult } from "../scenarios/context";
import { figuresOf } from "./figures";

const burstOf = (serverMs: number, upChunks: number, behind = 0): BurstFigures =>
  ({
    n: 100,
    behind,
    ttft50: 60,
    total50: 10_200,
    upChunks,
    cpu: { wallMs: 10_000, serverMs, serverSysMs: 0, dbMs: NaN, harnessMs: 0, machineMs: 0, stealMs: 0 },
  }) as BurstFigures;

const suite = (bursts: [number, BurstFigures][]): SuiteResult => ({
  kind: "postgresql",
  target: "current",
  processes: 1,
  treeSize: 1,
  restarts: 0,
  bursts: new Map(bursts),
  stored: [],
  writes: [],
});

describe("burst figures against the bare relay", () => {
  it("gives the relay's behind and CPU per upstream chunk, and the server's over the relay's, at each size both ran", () => {
    const relay = new Map([[100, burstOf(2_500, 50_000, 3)]]); // 50 us per chunk
    const f = figuresOf(
      suite([
        [100, burstOf(6_000, 40_000)],
        [50, burstOf(3_000, 25_000)],
      ]),
      relay,
    );
    expect(f["100 chats: server CPU us/upstream chunk"]).toBe(150);
    expect(f["100 chats: relay behind"]).toBe(3);
    expect(f["100 chats: relay server CPU us/upstream chunk"]).toBe(50);
    expect(f["100 chats: server CPU per chunk / relay's"]).toBe(3);
    expect(f).not.toHaveProperty("50 chats: relay behind");
  });

  it("has no relay figures when the relay's bursts did not run", () => {
    const names = Object.keys(figuresOf(suite([[100, burstOf(6_000, 40_000)]])));
    expect(names).toContain("100 chats: behind");
    expect(names.filter((x) => x.includes("relay"))).toEqual([]);
  });
});
