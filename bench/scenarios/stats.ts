// Figures of a set of streams, and the two ways the scenarios send them: one after another, or all at
// once with a deadline. Infinity stands for "not finished / never arrived before the cut".
import { cpuBetween, type Cpu, type Snapshot } from "../harness/cpu";
import { rateOf, type StreamOptions, type StreamResult } from "../harness/http";
import { sleep } from "../harness/lifecycle";

export function percentile(values: number[], p: number): number {
  const v = values.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const idx = (v.length - 1) * p;
  const lo = Math.floor(idx);
  const hi = Math.ceil(idx);
  if (v[hi] === Infinity) return Infinity;
  return v[lo] + (v[hi] - v[lo]) * (idx - lo);
}

export interface Summary {
  n: number;
  ttft50: number;
  ttft95: number;
  total50: number;
  total95: number;
  totalMax: number;
  rate50: number;
  toUpstream50: number;
  toUpstream95: number;
  chunks: number;
  chars: number;
  /** Upstream chunks whose text arrived (characters / chunk size: aimock cuts the answer into equal chunks). */
  upChunks: number;
  short: number;
  cut: number;
  errors: number;
  /** Refused at capacity (PARLEY_MAX_ACTIVE_TURNS): 503 with Retry-After, counted among the failed. */
  busy: number;
  firstError?: string;
  encodings: string;
  /** Failed, cut, short, or total more than behindPct over the reference. NaN without a reference. */
  behind: number;
}

/**
 * A stream is complete when all the answer's characters arrived (`expectedChars`); its chunk count is
 * only informative, as Parley may merge deltas.
 */
export function summarize(results: StreamResult[], reference: number, expectedChars: number, chunkChars: number, behindPct: number): Summary {
  const valid = results.filter((r) => !r.error);
  const limit = reference * (1 + behindPct / 100);
  const ttfts = valid.map((r) => (r.chunks ? r.ttft : Infinity));
  const totals = valid.map((r) => (r.cut ? Infinity : r.total));
  return {
    n: results.length,
    ttft50: percentile(ttfts, 0.5),
    ttft95: percentile(ttfts, 0.95),
    total50: percentile(totals, 0.5),
    total95: percentile(totals, 0.95),
    totalMax: percentile(totals, 1),
    rate50: percentile(valid.map(rateOf), 0.5),
    toUpstream50: percentile(
      results.map((r) => r.toUpstream ?? NaN),
      0.5,
    ),
    toUpstream95: percentile(
      results.map((r) => r.toUpstream ?? NaN),
      0.95,
    ),
    chunks: results.reduce((a, r) => a + r.chunks, 0),
    chars: results.reduce((a, r) => a + r.chars, 0),
    upChunks: results.reduce((a, r) => a + Math.round(r.chars / chunkChars), 0),
    short: results.filter((r) => !r.error && r.chars < expectedChars).length,
    cut: results.filter((r) => r.cut).length,
    errors: results.filter((r) => r.error).length,
    busy: results.filter((r) => r.status === 503).length,
    firstError: results.find((r) => r.error)?.error,
    encodings: [...new Set(results.map((r) => r.encoding).filter(Boolean))].join(", "),
    behind: Number.isFinite(reference) ? results.filter((r) => r.error || r.cut || r.chars < expectedChars || r.total > limit).length : NaN,
  };
}

export async function sequential<T>(labels: string[], once: (i: number, label: string) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < labels.length; i++) results.push(await once(i, labels[i]));
  return results;
}

/**
 * Starts n streams together. At the deadline, `atDeadline` runs (the caller takes its measurements),
 * the unfinished streams are cut on the client side, then `afterCut` runs (the caller may kill the server).
 */
export async function burst(
  n: number,
  deadlineMs: number,
  start: (i: number, opts: StreamOptions) => Promise<StreamResult>,
  { atDeadline, afterCut }: { atDeadline?: () => Promise<unknown>; afterCut?: () => Promise<unknown> } = {},
): Promise<{ results: StreamResult[]; cut: boolean }> {
  const done = new Array<boolean>(n).fill(false);
  const aborts = Array.from({ length: n }, () => new AbortController());
  const all = Promise.all(
    Array.from({ length: n }, (_, i) =>
      start(i, { signal: aborts[i].signal }).then((r) => {
        done[i] = true;
        return r;
      }),
    ),
  );
  const first = await Promise.race([all, sleep(deadlineMs).then(() => "deadline" as const)]);
  let cut = false;
  if (first === "deadline" && done.some((d) => !d)) {
    cut = true;
    await atDeadline?.();
    aborts.forEach((a, i) => !done[i] && a.abort());
    await afterCut?.();
  }
  return { results: await all, cut };
}

/**
 * A burst (as `burst`) with the CPU of what serves it: `measure` is read at the start and 500 ms after
 * the last stream (the last answers are being stored), or at the deadline, before the streams still
 * running are cut and `afterCut` runs (kill the server, so nothing runs on into the next phase).
 */
export async function measuredBurst(
  n: number,
  deadlineMs: number,
  start: (i: number, opts: StreamOptions) => Promise<StreamResult>,
  measure: () => Promise<Snapshot>,
  afterCut: () => Promise<unknown>,
): Promise<{ results: StreamResult[]; cut: boolean; cpu: Cpu }> {
  const a = await measure();
  let e: Snapshot | undefined;
  const { results, cut } = await burst(n, deadlineMs, start, { atDeadline: async () => (e = await measure()), afterCut });
  if (!cut) {
    await sleep(500);
    e = await measure();
  }
  return { results, cut, cpu: cpuBetween(a, e!) };
}
