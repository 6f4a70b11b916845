// The cost axis of the usage charts reads in round steps, each label the value of its tick (never
// $0.00 / $0.01 / $0.03 for ticks at 0, 0.0075 and 0.0225).
import { describe, expect, it } from "vitest";
import { costAxis } from "./cost-axis";

const labelled = (max: number) => {
  const axis = costAxis(max);
  return axis.ticks.map((t) => [t, axis.format(t)]);
};

describe("the cost axis", () => {
  it("steps by 1, 2 or 5 of a power of ten, up to the largest cost, with labels as precise as the step", () => {
    expect(labelled(0.0288)).toEqual([
      [0, "$0.00"],
      [0.01, "$0.01"],
      [0.02, "$0.02"],
      [0.03, "$0.03"],
    ]);
    expect(labelled(0.0042)).toEqual([
      [0, "$0.000"],
      [0.001, "$0.001"],
      [0.002, "$0.002"],
      [0.003, "$0.003"],
      [0.004, "$0.004"],
      [0.005, "$0.005"],
    ]);
    expect(labelled(12.3)).toEqual([
      [0, "$0"],
      [5, "$5"],
      [10, "$10"],
      [15, "$15"],
    ]);
    expect(labelled(0.75)).toEqual([
      [0, "$0.00"],
      [0.2, "$0.20"],
      [0.4, "$0.40"],
      [0.6, "$0.60"],
      [0.8, "$0.80"],
    ]);
  });

  it("has an axis for no cost at all, and its domain ends on the last tick", () => {
    expect(labelled(0)).toEqual([
      [0, "$0.00"],
      [0.01, "$0.01"],
    ]);
    expect(costAxis(0.0288).domain).toEqual([0, 0.03]);
  });

  it("labels every tick differently and as the value it stands for", () => {
    for (const max of [0.00031, 0.017, 0.09, 0.3, 2.2, 47, 980]) {
      const axis = costAxis(max);
      const labels = axis.ticks.map(axis.format);
      expect(new Set(labels).size).toBe(labels.length);
      axis.ticks.forEach((t, i) => expect(Number(labels[i].slice(1).replace(/,/g, ""))).toBeCloseTo(t, 10));
      expect(axis.ticks.at(-1)).toBeGreaterThanOrEqual(max);
    }
  });
});
