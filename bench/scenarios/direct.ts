// The upstream alone: the reference totals (fast, for the one-stream phase; paced, for "behind" and
// the deadline of the bursts), and bursts without Parley at the paced profile: straight from the
// upstream, and through the bare AI SDK relay (one plain Node process, no database).
import { cpuBetween, snapshot, type Snapshot } from "../harness/cpu";
import { killNow, log, sleep } from "../harness/lifecycle";
import { relayStream, restartRelay, type Relay } from "../harness/relay";
import { attachArrivals, directStream, PACED, SOAK, upstreamArrivals, type Upstream } from "../harness/upstream";
import type { BenchOptions } from "../options";
import { fmt } from "../report/format";
import type { BurstFigures, Direct } from "./context";
import { burst, measuredBurst, sequential, summarize } from "./stats";

/**
 * `paced`: the bursts' reference (needed by the bursts); `bursts`: the upstream alone at each burst size;
 * `relay`: at each burst size, the same burst through the bare relay next.
 */
export async function runDirect(
  o: BenchOptions,
  up: Upstream,
  { paced: withPaced, bursts: withBursts, relay }: { paced: boolean; bursts: boolean; relay?: Relay },
): Promise<Direct> {
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

  if (!withPaced) return { reference, refSummary, paced: { reference: NaN, summary: refSummary, deadline: NaN }, bursts: new Map(), relayBursts: new Map() };
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

  const out: Direct = { reference, refSummary, paced, bursts: new Map(), relayBursts: new Map() };
  if (relay) await warmUpRelay(relay);
  for (const n of o.concurrency) {
    if (withBursts) out.bursts.set(n, await directBurst(o, up, paced, n));
    if (relay) out.relayBursts.set(n, await relayBurst(o, up, relay, paced, n));
  }
  return out;
}

/** As Parley's warm-up turns: one short answer, so the first burst does not pay for loading code. */
const warmUpRelay = (relay: Relay) => relayStream(relay, `relay ${SOAK} warmup`);

async function directBurst(o: BenchOptions, up: Upstream, paced: Direct["paced"], n: number): Promise<BurstFigures> {
  log(`direct: ${n} concurrent paced streams`);
  const labels = Array.from({ length: n }, (_, i) => `direct ${PACED} c${n}-${i}`);
  const b = await snapshot(up.pid);
  let e: Snapshot | undefined;
  const { results } = await burst(n, paced.deadline, (i, opts) => directStream(up, labels[i], opts), {
    atDeadline: async () => (e = await snapshot(up.pid)),
  });
  const cpu = cpuBetween(b, e ?? (await snapshot(up.pid)));
  attachArrivals(results, labels, await upstreamArrivals(up));
  const figures = { ...summarize(results, paced.reference, up.pacedChars, o.chunkChars, o.behindPct), cpu };
  await sleep(500);
  return figures;
}

/**
 * The same burst through the bare relay, its process's CPU measured as Parley's is: from the start to
 * 500 ms after the last stream (Parley's window), or to the deadline, where the streams still running
 * are cut and the relay is killed and started again, so nothing runs on into the next phase.
 */
async function relayBurst(o: BenchOptions, up: Upstream, relay: Relay, paced: Direct["paced"], n: number): Promise<BurstFigures> {
  log(`bare relay: ${n} concurrent paced chats`);
  const labels = Array.from({ length: n }, (_, i) => `relay ${PACED} c${n}-${i}`);
  const { results, cut, cpu } = await measuredBurst(
    n,
    paced.deadline,
    (i, opts) => relayStream(relay, labels[i], opts),
    () => snapshot(up.pid, { pid: relay.pid }),
    () => killNow(relay.child),
  );
  attachArrivals(results, labels, await upstreamArrivals(up));
  if (cut) {
    log(`bare relay: ${n} concurrent: cut at the deadline, relay killed; restarting it`);
    await restartRelay(relay);
    await warmUpRelay(relay);
  }
  return { ...summarize(results, paced.reference, up.pacedChars, o.chunkChars, o.behindPct), cpu, killed: cut };
}
