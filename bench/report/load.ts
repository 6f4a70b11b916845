// Sections 3 and 4 of the report: database writes per answer (PostgreSQL), and the concurrent chats
// at a model's pace, against the upstream alone and the bare AI SDK relay at the same number of streams.
import type { BurstFigures } from "../scenarios/context";
import { fmt, pct, table } from "./format";
import { LABEL, type RunReport } from "./model";
import { perChunk } from "./streams";

const RELAY = "bare AI SDK relay";
const serverUs = (b: BurstFigures) => perChunk(b.cpu.serverMs, b.upChunks);

export function writesSection(r: RunReport): string[] {
  const pgSuite = r.suites.find((s) => !s.skipped && s.kind === "postgresql");
  const out = ["", "3. Database writes per answer (PostgreSQL, pg_stat_user_tables n_tup_ins + n_tup_upd; counts the question's rows too)"];
  if (!pgSuite || !pgSuite.writes.length) return [...out, "  (no PostgreSQL run)"];
  const rows = pgSuite.writes.map((w) => {
    const per = (x: number) => fmt(x / w.answers, 1);
    return [
      w.phase,
      `${w.answers}`,
      per(w.messageIns),
      per(w.messageUpd),
      per(w.blockIns),
      per(w.blockUpd),
      per(w.messageIns + w.messageUpd + w.blockIns + w.blockUpd),
    ];
  });
  const tot = pgSuite.writes.reduce(
    (a, w) => ({ answers: a.answers + w.answers, mi: a.mi + w.messageIns, mu: a.mu + w.messageUpd, bi: a.bi + w.blockIns, bu: a.bu + w.blockUpd }),
    { answers: 0, mi: 0, mu: 0, bi: 0, bu: 0 },
  );
  if (tot.answers) {
    const per = (x: number) => fmt(x / tot.answers, 1);
    rows.push(["all measured", `${tot.answers}`, per(tot.mi), per(tot.mu), per(tot.bi), per(tot.bu), per(tot.mi + tot.mu + tot.bi + tot.bu)]);
  }
  return [
    ...out,
    table(["phase", "answers", "Message ins", "Message upd", "Block ins", "Block upd", "writes/answer"], rows),
    "  (cut): the server was killed at the burst's deadline, so these count what was written while streaming, before the cut,",
    "  which is what a crash at that moment would leave.",
  ];
}

export function burstsSection(r: RunReport): string[] {
  const { o, direct } = r;
  const ran = r.suites.filter((s) => !s.skipped && s.bursts.size);
  if (!ran.length && !direct.bursts.size && !direct.relayBursts.size) return [];
  const ms = (x: number, d = 0) => (x === Infinity ? `>${fmt(direct.paced.deadline)}` : fmt(x, d));
  const rows: string[][] = [];
  for (const n of o.concurrency) {
    const d = direct.bursts.get(n);
    const row = (label: string, s: BurstFigures) => [
      label,
      `${n}`,
      ms(s.ttft50, 1),
      ms(s.ttft95, 1),
      ms(s.toUpstream50),
      ms(s.toUpstream95),
      ms(s.total50),
      ms(s.total95),
      fmt(s.rate50),
      d && s !== d ? pct(s.rate50 / d.rate50) : "",
      pct(s.rate50 / direct.paced.summary.rate50),
      `${s.behind}/${s.n}`,
      `${s.cut}`,
      `${s.errors}${s.busy ? ` (${s.busy} busy)` : ""}`,
      fmt(serverUs(s)),
    ];
    if (d) rows.push(row("direct", d));
    const relay = direct.relayBursts.get(n);
    if (relay) rows.push(row(RELAY, relay));
    for (const s of ran) {
      const c = s.bursts.get(n);
      if (c) rows.push(row(LABEL[s.kind], c));
    }
  }
  const agg: string[] = [];
  for (const n of o.concurrency) {
    const d = direct.bursts.get(n);
    if (d) agg.push(`direct ${n}: ${fmt((d.chars * 1000) / d.cpu.wallMs)}/s`);
    const relay = direct.relayBursts.get(n);
    if (relay) agg.push(`relay ${n}: ${fmt((relay.chars * 1000) / relay.cpu.wallMs)}/s`);
    for (const s of ran) {
      const c = s.bursts.get(n);
      if (c) agg.push(`${s.kind} ${n}: ${fmt((c.chars * 1000) / c.cpu.wallMs)}/s`);
    }
  }
  const out = [
    "",
    `4. Concurrent chats at the paced profile (each its own chat, all requests sent at once; ms). Behind = total more than ${o.behindPct}% ` +
      `over the direct paced one-stream p50 total (${fmt(direct.paced.reference)} ms, ${o.pacedRefRuns} runs), short, or failed.`,
    `   Streams still running at ${fmt(direct.paced.deadline)} ms (${o.deadlineFactor}x that total) are cut there ("cut"; the Parley server, or the`,
    "   bare relay, is killed then and restarted for the next phase, so no turn runs on into it). Cut streams count as behind; their totals",
    "   show as >deadline. The bare relay (one plain Node process, no database) runs each burst once, right after the upstream alone.",
    table(
      [
        "path",
        "chats",
        "TTFT p50",
        "TTFT p95",
        "to upstream p50",
        "to upstream p95",
        "total p50",
        "total p95",
        "chars/s p50",
        "vs direct same N",
        "vs direct 1 stream",
        "behind",
        "cut",
        "failed",
        "server us/upstream chunk",
      ],
      rows,
    ),
    `  Characters delivered per second, all streams together: ${agg.join(", ")}.`,
    ...relayComparison(r),
  ];
  for (const s of ran) for (const [n, c] of s.bursts) if (c.firstError) out.push(`  ${LABEL[s.kind]} at ${n}: first error: ${c.firstError}`);
  for (const [n, c] of direct.bursts) if (c.firstError) out.push(`  direct at ${n}: first error: ${c.firstError}`);
  for (const [n, c] of direct.relayBursts) if (c.firstError) out.push(`  ${RELAY} at ${n}: first error: ${c.firstError}`);
  const behindList = (bursts: Map<number, BurstFigures>) => [...bursts].filter(([, c]) => c.behind > 0).map(([n, c]) => `${c.behind}/${n} at ${n}`);
  const directBehind = behindList(direct.bursts);
  if (directBehind.length) out.push(`  Without Parley, aimock and the harness alone already fall behind: ${directBehind.join(", ")}.`);
  const relayBehind = behindList(direct.relayBursts);
  if (relayBehind.length) out.push(`  The ${RELAY} falls behind too: ${relayBehind.join(", ")}.`);
  for (const s of r.suites) {
    if (s.logProblems?.count)
      out.push(`  ${LABEL[s.kind]} server log: ${s.logProblems.count} warning/error line(s), first: ${s.logProblems.first.join(" | ")}`);
  }
  return out;
}

/**
 * Per burst size: how busy the bare relay's process was, and each Parley server's CPU per upstream
 * chunk over the relay's (the server process alone, then with its PostgreSQL backends).
 */
export function relayComparison(r: RunReport): string[] {
  const ran = r.suites.filter((s) => !s.skipped);
  const out: string[] = [];
  for (const [n, relay] of r.direct.relayBursts) {
    const parts = [`relay busy ${pct(relay.cpu.serverMs / relay.cpu.wallMs)} of a core`];
    for (const s of ran) {
      const c = s.bursts.get(n);
      if (!c) continue;
      const db = Number.isFinite(c.cpu.dbMs)
        ? ` (${fmt(perChunk(c.cpu.serverMs + c.cpu.dbMs, c.upChunks) / serverUs(relay), 2)}x with its PostgreSQL backends)`
        : "";
      parts.push(
        `${LABEL[s.kind]} ${fmt(serverUs(c) / serverUs(relay), 2)}x the relay's CPU per upstream chunk${db}, busy ${pct(c.cpu.serverMs / c.cpu.wallMs)}`,
      );
    }
    out.push(`  ${n} chats: ${parts.join("; ")}.`);
  }
  return out;
}
