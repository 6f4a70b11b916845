// The cost of an answer from its tokens and its model's prices (US dollars per million tokens), as
// the providers bill it: input read from the prompt cache at the cached-input price (the input price
// when no cached price is set), the rest of the input at the input price, and every output token,
// reasoning included (providers count reasoning tokens among the output tokens), at the output price.
// Costs are rounded to a billionth of a dollar so that sums of many answers stay exact enough.

export type Prices = { inputPrice: number | null; cachedInputPrice: number | null; outputPrice: number | null };

export type TokenCounts = {
  inputTokens: number;
  outputTokens: number;
  /** Part of inputTokens read from the provider's prompt cache. */
  cachedInputTokens: number;
  /** Part of outputTokens the model spent reasoning (shown; billed as output). */
  reasoningTokens: number;
};

const PER_MILLION = 1_000_000;

/** The cost in US dollars, or null when the model has no input or output price. */
export function costOf(tokens: TokenCounts, prices: Prices): number | null {
  if (prices.inputPrice == null || prices.outputPrice == null) return null;
  const cached = Math.min(Math.max(tokens.cachedInputTokens, 0), Math.max(tokens.inputTokens, 0));
  const fresh = Math.max(tokens.inputTokens, 0) - cached;
  const cachedPrice = prices.cachedInputPrice ?? prices.inputPrice;
  const dollars = (fresh * prices.inputPrice + cached * cachedPrice + Math.max(tokens.outputTokens, 0) * prices.outputPrice) / PER_MILLION;
  return roundCost(dollars);
}

/** A cost rounded to a billionth of a dollar. */
export function roundCost(dollars: number): number {
  return Math.round(dollars * 1e9) / 1e9;
}

/** Adds two costs where null means "not known". */
export function addCost(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null && b == null) return null;
  return roundCost((a ?? 0) + (b ?? 0));
}
