// How usage reads: costs, token counts and budget amounts.
import { describe, expect, it } from "vitest";
import { formatBudgetAmount, formatCost, formatTokens } from "./usage";

describe("formatCost", () => {
  it("shows small costs with two significant digits and larger ones in cents", () => {
    expect(formatCost(0.0054)).toBe("$0.0054");
    expect(formatCost(12.345)).toBe("$12.35");
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(null)).toBe("—");
  });
});

describe("formatTokens and formatBudgetAmount", () => {
  it("separate thousands, and a token budget counts whole tokens", () => {
    expect(formatTokens(1234567)).toBe("1,234,567");
    expect(formatTokens(undefined)).toBe("0");
    expect(formatBudgetAmount("tokens", 1199.6)).toBe("1,200 tokens");
    expect(formatBudgetAmount("cost", 5)).toBe("$5.00");
  });
});
