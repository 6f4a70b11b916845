// The retrieval bench's scores: a hit needs the right document and the phrase (across a line break
// too), and recall@k and MRR come out as worked by hand.
import { describe, expect, it } from "vitest";
import { firstHitRank, isHit, meanReciprocalRank, recallAtK } from "./metrics";

const q = { document: "handbook.md", phrase: "27 days of annual leave" };

describe("retrieval metrics", () => {
  it("a hit is a passage of the right document whose text holds the phrase", () => {
    expect(isHit({ documentName: "handbook.md", text: "Employees get 27 days of annual leave a year." }, q)).toBe(true);
    expect(isHit({ documentName: "handbook.md", text: "Employees get 27 days of\nannual  leave." }, q)).toBe(true);
    expect(isHit({ documentName: "other.md", text: "Employees get 27 days of annual leave." }, q)).toBe(false);
    expect(isHit({ documentName: "handbook.md", text: "Employees get 25 days of annual leave." }, q)).toBe(false);
  });

  it("the first answering passage's rank counts from 1, null when none answers", () => {
    const miss = { documentName: "handbook.md", text: "Sick pay is 100% of salary." };
    const hit = { documentName: "handbook.md", text: "27 days of annual leave" };
    expect(firstHitRank([miss, hit, hit], q)).toBe(2);
    expect(firstHitRank([hit], q)).toBe(1);
    expect(firstHitRank([miss], q)).toBeNull();
    expect(firstHitRank([], q)).toBeNull();
  });

  it("recall@k is the share of questions answered within the first k", () => {
    const ranks = [1, 3, 6, null];
    expect(recallAtK(ranks, 1)).toBe(0.25);
    expect(recallAtK(ranks, 5)).toBe(0.5);
    expect(recallAtK(ranks, 10)).toBe(0.75);
    expect(recallAtK([], 5)).toBe(0);
  });

  it("MRR averages 1/rank, a question without an answer counting 0", () => {
    expect(meanReciprocalRank([1, 2, 4, null])).toBeCloseTo((1 + 0.5 + 0.25 + 0) / 4, 12);
    expect(meanReciprocalRank([1, 1])).toBe(1);
    expect(meanReciprocalRank([null])).toBe(0);
    expect(meanReciprocalRank([])).toBe(0);
  });
});
