// How usage reads in the UI: token counts with thousands separators, costs in dollars ($0.0054 for
// small amounts, cents otherwise, "—" when the model has no price).

export function formatTokens(n: number | null | undefined): string {
  return (n ?? 0).toLocaleString("en");
}

export function formatCost(dollars: number | null | undefined): string {
  if (dollars == null) return "—";
  if (dollars === 0) return "$0.00";
  if (Math.abs(dollars) < 0.01) return `$${dollars.toPrecision(2).replace(/0+$/, "")}`;
  return `$${dollars.toFixed(2)}`;
}
