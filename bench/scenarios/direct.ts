// The upstream alone: the reference totals (fast, for the one-stream phase; paced, for "behind" and
// the deadline of the bursts), and bursts without Parley at the paced profile.
import { cpuBetween, snapshot, type Snapshot } from "../harness/cpu";
import { log, sleep } from "../harness/lifecycle";
import { attachArrivals, directStream, PACED, upstreamArrivals, type Upstream } from "../harness/upstream";
import type { BenchOptions } from "../options";
import { fmt } from "../report/format";
import type { Direct } from "./context";
import { burst, sequential, summarize } from "./stats";

/** `paced`: the bursts' reference (needed by the bursts); `bursts`: the upstream alone at each burst size. */
export async function runDirect(o: BenchOptions, up: Upstream, { paced: withPaced, bursts: withBursts }: { paced: boolean; bursts: boolean }): Promise<Direct> {
  const refRuns = Math.max(3, Math.ceil(o.runs / 2));
  log(`direct: warm-up, then ${refRuns} sequential streams for the reference`);
  await sequential(["direct warmup 0", "direct warmup 1"].slice(0, o.warmup), (_, label) => directStream(up, label));
  await upstreamArrivals(up);
  const seq = await sequential(
    Array.from({ length: refRuns }, (_, i) => `direct ref ${i}`),
    (_, label) => directStream(up, label),
  );
  const reference = summarize(seq, NaN, up.expectedChars, o.chunkChars, o.behindPct).total50;
  const refSummary = summarize(seq, reference, up.expectedChars, o.chunkChars, o.behindPct);
  log(
    `direct: p50 TTFT ${fmt(refSummary.ttft50, 1)} ms, total ${fmt(reference)} ms, ` +
      `${refSummary.chars / refRuns} chars in ${refSummary.chunks / refRuns} chunks per stream`,
  );
  if (refSummary.errors || refSummary.short) throw new Error(`the direct baseline is broken: ${refSummary.firstError ?? "short streams"}`);

  if (!withPaced) return { reference, refSummary, paced: { reference: NaN, summary: refSummary, deadline: NaN }, bursts: new Map() };
  // The bursts run at a model's pace, so they need a reference of their own at that pace.
  log(`direct: ${o.pacedRefRuns} sequential paced streams for the bursts' reference`);
  const pacedSeq = await sequential(
    Array.from({ length: o.pacedRefRuns }, (_, i) => `direct ${PACED} ref ${i}`),
    (_, label) => directStream(up, label),
  );
  const pacedRef = summarize(pacedSeq, NaN, up.pacedChars, o.chunkChars, o.behindPct).total50;
  const paced = {
    reference: pacedRef,
    summary: summarize(pacedSeq, pacedRef, up.pacedChars, o.chunkChars, o.behindPct),
    deadline: pacedRef * o.deadlineFactor,
  };
  log(`direct paced: p50 TTFT ${fmt(paced.summary.ttft50, 1)} ms, total ${fmt(pacedRef)} ms, ${paced.summary.chars / o.pacedRefRuns} chars per stream`);
  if (paced.summary.errors || paced.summary.short) throw new Error(`the paced direct baseline is broken: ${paced.summary.firstError ?? "short streams"}`);
  await upstreamArrivals(up);

  const out: Direct = { reference, refSummary, paced, bursts: new Map() };
  if (!withBursts) return out;
  for (const n of o.concurrency) {
    log(`direct: ${n} concurrent paced streams`);
    const labels = Array.from({ length: n }, (_, i) => `direct ${PACED} c${n}-${i}`);
    const b = await snapshot(up.pid);
    let e: Snapshot | undefined;
    const { results } = await burst(n, paced.deadline, (i, opts) => directStream(up, labels[i], opts), {
      atDeadline: async () => (e = await snapshot(up.pid)),
    });
    const cpu = cpuBetween(b, e ?? (await snapshot(up.pid)));
    attachArrivals(results, labels, await upstreamArrivals(up));
    out.bursts.set(n, { ...summarize(results, paced.reference, up.pacedChars, o.chunkChars, o.behindPct), cpu });
    await sleep(500);
  }
  return out;
}
