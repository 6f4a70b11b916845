// Cost arithmetic: cached input at its own price, reasoning billed as output, unknown prices, rounding.
import { describe, expect, it } from "vitest";
import { addCost, costOf } from "./cost";
import { suggestedPrices } from "./price-table";

const prices = { inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 };

describe("costOf", () => {
  it("bills fresh input, cached input and output at their prices per million tokens", () => {
    // 600 fresh × $2 + 400 cached × $0.50 + 500 output × $8, per million
    expect(costOf({ inputTokens: 1000, cachedInputTokens: 400, outputTokens: 500, reasoningTokens: 0 }, prices)).toBe(0.0054);
  });

  it("counts reasoning tokens once, as the output tokens they are part of", () => {
    const plain = costOf({ inputTokens: 1000, cachedInputTokens: 0, outputTokens: 500, reasoningTokens: 0 }, prices);
    expect(costOf({ inputTokens: 1000, cachedInputTokens: 0, outputTokens: 500, reasoningTokens: 300 }, prices)).toBe(plain);
    expect(plain).toBe(0.006);
  });

  it("uses the input price for cached input when the model has no cached price", () => {
    expect(costOf({ inputTokens: 1000, cachedInputTokens: 1000, outputTokens: 0, reasoningTokens: 0 }, { ...prices, cachedInputPrice: null })).toBe(0.002);
  });

  it("never counts more cached tokens than input tokens, nor negative counts", () => {
    expect(costOf({ inputTokens: 100, cachedInputTokens: 500, outputTokens: -3, reasoningTokens: 0 }, prices)).toBe(0.00005);
  });

  it("is unknown (null) without an input or output price", () => {
    expect(
      costOf({ inputTokens: 1, cachedInputTokens: 0, outputTokens: 1, reasoningTokens: 0 }, { inputPrice: null, cachedInputPrice: null, outputPrice: 8 }),
    ).toBeNull();
  });

  it("stays exact over many small answers (rounded to a billionth of a dollar)", () => {
    let total: number | null = null;
    for (let i = 0; i < 1000; i++)
      total = addCost(
        total,
        costOf({ inputTokens: 7, cachedInputTokens: 0, outputTokens: 3, reasoningTokens: 0 }, { inputPrice: 0.15, cachedInputPrice: null, outputPrice: 0.6 }),
      );
    expect(total).toBe(0.00285);
  });
});

describe("the price table", () => {
  it("suggests prices for known models (dated variants and provider prefixes too) and none for unknown ones", () => {
    expect(suggestedPrices("gpt-4.1-mini")).toEqual({ inputPrice: 0.4, cachedInputPrice: 0.1, outputPrice: 1.6 });
    expect(suggestedPrices("gpt-4o-2024-08-06")?.inputPrice).toBe(2.5);
    expect(suggestedPrices("openai/gpt-4o-mini")?.inputPrice).toBe(0.15);
    expect(suggestedPrices("llama3.2:3b")).toBeNull();
  });
});
