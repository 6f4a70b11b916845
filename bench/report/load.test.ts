// Section 4: the bare relay's row beside the upstream alone and Parley, and Parley's CPU per chunk over the relay's.
import { describe, expect, it } from "vitest";
import { parseOptions } from "../options";
import type { BurstFigures, Direct, SuiteResult } from "../scenarios/context";
import { burstsSection, relayComparison } from "./load";
import type { RunReport } from "./model";

const burstOf = (serverMs: number, dbMs = NaN, behind = 0): BurstFigures =>
  ({
    n: 100,
    behind,
    ttft50: 60,
    ttft95: 80,
    toUpstream50: 5,
    toUpstream95: 9,
    total50: 10_200,
    total95: 10_400,
    rate50: 200,
    upChunks: 50_000,
    chars: 200_000,
    cut: 0,
    errors: 0,
    busy: 0,
    cpu: { wallMs: 10_000, serverMs, serverSysMs: 0, dbMs, harnessMs: 0, machineMs: 0, stealMs: 0 },
  }) as BurstFigures;

const report = (relay: BurstFigures, parley: BurstFigures): RunReport => {
  const suite: SuiteResult = {
    kind: "postgresql",
    target: "current",
    processes: 1,
    treeSize: 1,
    restarts: 0,
    bursts: new Map([[100, parley]]),
    stored: [],
    writes: [],
  };
  const direct = {
    paced: { reference: 10_100, deadline: 15_150, summary: { rate50: 200 } },
    bursts: new Map([[100, burstOf(NaN)]]),
    relayBursts: new Map([[100, relay]]),
  } as unknown as Direct;
  return { o: parseOptions(["--concurrency", "100"])!, direct, suites: [suite] } as unknown as RunReport;
};

describe("bursts section with the bare relay", () => {
  it("sets Parley's CPU per upstream chunk against the relay's, alone and with the PostgreSQL backends", () => {
    const r = report(burstOf(2_500), burstOf(7_500, 2_500));
    expect(relayComparison(r)).toEqual([
      "  100 chats: relay busy 25% of a core; Parley PostgreSQL 3.00x the relay's CPU per upstream chunk (4.00x with its PostgreSQL backends), busy 75%.",
    ]);
  });

  it("lists the relay's row between the upstream alone and Parley, with its CPU per chunk, and says when it falls behind", () => {
    const lines = burstsSection(report(burstOf(2_500, NaN, 7), burstOf(7_500)))
      .join("\n")
      .split("\n");
    const rowOf = (label: string) => lines.find((l) => l.startsWith(label))!;
    expect(lines.indexOf(rowOf("direct"))).toBeLessThan(lines.indexOf(rowOf("bare AI SDK relay")));
    expect(lines.indexOf(rowOf("bare AI SDK relay"))).toBeLessThan(lines.indexOf(rowOf("Parley PostgreSQL")));
    expect(rowOf("direct")).toMatch(/ -$/);
    expect(rowOf("bare AI SDK relay")).toMatch(/ 7\/100 .* 50$/);
    expect(rowOf("Parley PostgreSQL")).toMatch(/ 150$/);
    expect(lines).toContain("  The bare AI SDK relay falls behind too: 7/100 at 100.");
  });
});
