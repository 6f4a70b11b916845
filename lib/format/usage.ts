// How usage reads, on the server and in the browser: token counts with thousands separators, costs in
// dollars ($0.0054 for small amounts, cents otherwise, "—" when the model has no price), a budget's amount.

export function formatTokens(n: number | null | undefined): string {
  return (n ?? 0).toLocaleString("en");
}

export function formatCost(dollars: number | null | undefined): string {
  if (dollars == null) return "—";
  if (dollars === 0) return "$0.00";
  if (Math.abs(dollars) < 0.01) return `$${dollars.toPrecision(2).replace(/0+$/, "")}`;
  return `$${dollars.toFixed(2)}`;
}

/** A budget's limit or spending in its metric: "$12.35" or "1,200 tokens". */
export function formatBudgetAmount(metric: "cost" | "tokens", value: number): string {
  return metric === "cost" ? formatCost(value) : `${formatTokens(Math.round(value))} tokens`;
}
