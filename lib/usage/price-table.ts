// Suggested prices for models Parley knows, in US dollars per million tokens, as the providers
// published them on the date below. An admin who adds a model from a provider's list gets these as a
// start and may change them; they are never fetched at run time. Keep the table small and dated.
import type { Prices } from "./cost";

export const PRICE_TABLE_DATE = "2026-11-01";

type Entry = [pattern: RegExp, prices: Prices];

// Most specific first: "gpt-4.1-mini" before "gpt-4.1". A dated variant ("gpt-4o-2024-08-06")
// matches its family.
const TABLE: Entry[] = [
  [/^gpt-4\.1-nano\b/, { inputPrice: 0.1, cachedInputPrice: 0.025, outputPrice: 0.4 }],
  [/^gpt-4\.1-mini\b/, { inputPrice: 0.4, cachedInputPrice: 0.1, outputPrice: 1.6 }],
  [/^gpt-4\.1\b/, { inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 }],
  [/^gpt-4o-mini\b/, { inputPrice: 0.15, cachedInputPrice: 0.075, outputPrice: 0.6 }],
  [/^gpt-4o\b/, { inputPrice: 2.5, cachedInputPrice: 1.25, outputPrice: 10 }],
  [/^gpt-5-nano\b/, { inputPrice: 0.05, cachedInputPrice: 0.005, outputPrice: 0.4 }],
  [/^gpt-5-mini\b/, { inputPrice: 0.25, cachedInputPrice: 0.025, outputPrice: 2 }],
  [/^gpt-5\b/, { inputPrice: 1.25, cachedInputPrice: 0.125, outputPrice: 10 }],
  [/^o4-mini\b/, { inputPrice: 1.1, cachedInputPrice: 0.275, outputPrice: 4.4 }],
  [/^o3-mini\b/, { inputPrice: 1.1, cachedInputPrice: 0.55, outputPrice: 4.4 }],
  [/^o3\b/, { inputPrice: 2, cachedInputPrice: 0.5, outputPrice: 8 }],
  [/^claude-(3-5-)?haiku|^claude-haiku-4/, { inputPrice: 0.8, cachedInputPrice: 0.08, outputPrice: 4 }],
  [/^claude-(3-7-)?sonnet|^claude-sonnet-4/, { inputPrice: 3, cachedInputPrice: 0.3, outputPrice: 15 }],
  [/^claude-opus-4/, { inputPrice: 15, cachedInputPrice: 1.5, outputPrice: 75 }],
];

/** The table's prices for a provider's model id ("openai/gpt-4o" works too), or null when unknown. */
export function suggestedPrices(modelId: string): Prices | null {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  for (const [pattern, prices] of TABLE) if (pattern.test(id)) return prices;
  return null;
}
