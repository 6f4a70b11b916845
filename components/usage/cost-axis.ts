// The cost axis of the usage charts: round ticks (steps of 1, 2 or 5 times a power of ten, at most
// five of them above zero, the last at or above the largest cost), each labelled as precisely as the
// step needs (cents at least below a dollar), so every label is the value of its tick.

export type CostAxis = { ticks: number[]; domain: [number, number]; format: (v: number) => string };

const clean = (n: number) => Number(n.toPrecision(12));

export function costAxis(max: number): CostAxis {
  let step = 0.01;
  if (max > 0) {
    const raw = max / 5;
    const magnitude = 10 ** Math.floor(Math.log10(raw));
    step = clean([1, 2, 5, 10].map((m) => m * magnitude).find((s) => clean(s) >= raw) ?? 10 * magnitude);
  }
  const decimals = step >= 1 ? 0 : Math.max(2, Math.round(-Math.log10(step) + 0.5 - 1e-9));
  const count = Math.max(1, Math.ceil(clean(max / step)));
  const ticks = Array.from({ length: count + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
  const format = (v: number) => `$${v.toLocaleString("en", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}`;
  return { ticks, domain: [0, ticks[ticks.length - 1]], format };
}
