// Number formatting and plain-text tables for the report. Infinity prints as "cut" (never arrived
// before the burst's deadline), NaN as "-".

export const fmt = (x: number, digits = 0) => (x === Infinity ? "cut" : Number.isFinite(x) ? x.toFixed(digits) : "-");
export const signed = (x: number, digits = 1) => (Number.isFinite(x) ? `${x >= 0 ? "+" : ""}${x.toFixed(digits)}` : "-");
export const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : "-");

/** Columns padded to their widest cell; the first column left-aligned, the others right, unless `align` says. */
export function table(headers: string[], rows: (string | number)[][], align?: ("l" | "r")[]): string {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c)));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => ((align?.[i] ?? (i === 0 ? "l" : "r")) === "l" ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

/** Mean of the finite values, NaN when there are none. */
export function mean(values: number[]): number {
  const v = values.filter(Number.isFinite);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : NaN;
}
