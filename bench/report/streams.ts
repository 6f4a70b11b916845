// The report's header and its first two sections: one stream at a time against the upstream read
// directly, and the CPU per upstream chunk of every phase.
import { otherCores, stolenCores, type Cpu } from "../harness/cpu";
import type { Summary } from "../scenarios/stats";
import { fmt, pct, signed, table } from "./format";
import { LABEL, loadWarnings, type RunReport } from "./model";

export function header(r: RunReport): string[] {
  const { o, up, suites } = r;
  const ran = suites.filter((s) => !s.skipped);
  const pgVersion = ran.find((s) => s.pgVersion)?.pgVersion;
  const perSec = (everyMs: number) => fmt(1000 / everyMs);
  const enc = [...new Set(ran.map((s) => s.stream?.seq.encodings).filter(Boolean))].join(", ");
  const out = [
    "Parley streaming benchmark",
    "==========================",
    `Upstream: aimock in its own process, Chat Completions SSE, chunks of ${o.chunkChars} chars (about a token), the first after ${o.ttftMs} ms.`,
    `  One stream at a time (sections 1, 2): ${up.expectedChunks} chunks (${up.expectedChars} chars), one every ${o.chunkMs} ms ` +
      `(${perSec(o.chunkMs)} chunks/s), to measure throughput and CPU.`,
    `  Concurrency bursts (sections 2-5): ${up.pacedChunks} chunks (${up.pacedChars} chars), one every ${o.burstChunkMs} ms ` +
      `(${perSec(o.burstChunkMs)} chunks/s per chat, a model's pace).`,
    `Runs: ${o.runs} sequential streams per path after ${o.warmup} warm-up turns per server process, direct and Parley alternating; bursts of ` +
      `${o.concurrency.join(", ")} concurrent chats. Scenarios: ${o.only.join(", ")}. Build: ${r.buildNote}. ` +
      `Server processes: ${o.processes > 1 ? `${o.processes} on PostgreSQL (PARLEY_PROCESSES, Redis), 1 on PGlite` : "1"}.`,
    `Machine: ${r.machine.cpus} CPUs, Node ${r.machine.node}, CLK_TCK ${r.machine.clkTck}${pgVersion ? `, PostgreSQL ${pgVersion}` : ""}.`,
    `The harness sends Accept-Encoding: ${o.acceptEncoding}; Parley answered with Content-Encoding: ${enc || "-"}.`,
    "TTFT = request sent -> first text chunk read; total = request sent -> response ended; chars/s = characters between the first and",
    "the last text chunk; to upstream = request sent -> aimock received the model call (aimock's journal, 1 ms resolution).",
    "Parley merges text deltas that arrive together, so it may send fewer chunks than aimock did with the same text: a stream is",
    "complete when all the answer's characters arrived (short = fewer), and the chunk counts are for information.",
  ];
  for (const s of suites) if (s.skipped) out.push(`NOTE: ${LABEL[s.kind]} was skipped: ${s.skipped}`);
  out.push(...loadWarnings(suites, r.machine.cpus));
  return out;
}

export function oneStreamSection(r: RunReport): string[] {
  const ran = r.suites.filter((s) => !s.skipped && s.stream);
  if (!ran.length) return [];
  const seqRow = (label: string, s: Summary) => [
    label,
    fmt(s.ttft50, 1),
    fmt(s.ttft95, 1),
    fmt(s.toUpstream50, 0),
    fmt(s.total50),
    fmt(s.total95),
    fmt(s.rate50),
    `${s.chars}`,
    `${s.chunks}`,
    `${s.short + s.errors}`,
  ];
  const rows = ran.flatMap((s) => [
    seqRow(`direct (alternating with ${s.kind})`, s.stream!.directSeq),
    seqRow(`bare AI SDK relay (alternating with ${s.kind})`, s.stream!.relaySeq),
    seqRow(LABEL[s.kind], s.stream!.seq),
  ]);
  const added = ran.map((s) => {
    const { seq, directSeq: d, authFloor } = s.stream!;
    const pre = seq.toUpstream50 - d.toUpstream50;
    const ttft = seq.ttft50 - d.ttft50;
    return [
      LABEL[s.kind],
      `${signed(ttft)} ms`,
      `${signed(seq.ttft95 - d.ttft95)} ms`,
      `${signed(pre, 0)} ms`,
      `${signed(ttft - pre, 0)} ms`,
      `${signed(seq.total50 - d.total50, 0)} ms`,
      `${signed(seq.total95 - d.total95, 0)} ms`,
      pct(seq.rate50 / d.rate50),
      `${fmt(authFloor, 1)} ms`,
    ];
  });
  return [
    "",
    `1. One stream at a time (${r.o.runs} runs each; ms)`,
    table(["path", "TTFT p50", "TTFT p95", "to upstream p50", "total p50", "total p95", "chars/s p50", "chars", "chunks received", "short/failed"], rows),
    "",
    table(
      [
        "added by Parley",
        "TTFT p50",
        "TTFT p95",
        "before upstream call p50",
        "rest of TTFT p50",
        "total p50",
        "total p95",
        "chars/s vs direct",
        "signed-in GET p50",
      ],
      added,
    ),
    "  Before upstream call = sign-in check, chat and model lookups, storing the question and an empty answer, loading the history.",
    "  Signed-in GET = GET /api/chats, the floor of any signed-in request (session, user, memberships, one list query).",
    ...ran.filter((s) => s.stream!.seq.firstError).map((s) => `  ${LABEL[s.kind]}: first error: ${s.stream!.seq.firstError}`),
  ];
}

/**
 * Per-chunk figures only where enough upstream chunks went through to mean something. Divided by
 * upstream chunks, not received ones: Parley may merge deltas, which would inflate a per-received-chunk figure.
 */
export const perChunk = (ms: number, chunks: number) => (chunks >= 1000 && Number.isFinite(ms) ? (ms * 1000) / chunks : NaN);

export function cpuSection(r: RunReport): string[] {
  const { o, direct } = r;
  const ran = r.suites.filter((s) => !s.skipped);
  const cpuRow = (label: string, phase: string, c: Cpu, sum: Summary) => [
    label,
    phase,
    `${sum.upChunks}`,
    `${sum.chunks}`,
    fmt(c.serverMs),
    fmt(perChunk(c.serverMs, sum.upChunks), 0),
    Number.isFinite(c.serverMs) && c.serverMs > 0 ? pct(c.serverSysMs / c.serverMs) : "-",
    pct(c.serverMs / c.wallMs),
    fmt(perChunk(c.dbMs, sum.upChunks), 0),
    fmt(perChunk(c.harnessMs, sum.upChunks), 0),
    fmt(otherCores(c), 2),
    fmt(stolenCores(c), 2),
  ];
  const rows: string[][] = [];
  for (const s of ran) if (s.stream) rows.push(cpuRow(`direct (with ${s.kind})`, "sequential", s.stream.directCpu, s.stream.directSeq));
  for (const s of ran) if (s.stream) rows.push(cpuRow(`bare AI SDK relay (with ${s.kind})`, "sequential", s.stream.relayCpu, s.stream.relaySeq));
  for (const [n, c] of direct.bursts) rows.push(cpuRow("direct", `${n} concurrent, paced`, c.cpu, c));
  for (const s of ran) {
    if (s.stream) rows.push(cpuRow(LABEL[s.kind], "sequential", s.stream.seqCpu, s.stream.seq));
    for (const [n, c] of s.bursts) rows.push(cpuRow(LABEL[s.kind], `${n} concurrent, paced`, c.cpu, c));
  }
  if (!rows.length) return [];
  return [
    "",
    `2. CPU per upstream text chunk (server = the npm start process tree: ${ran.map((s) => `${s.treeSize} process(es)`).join(", ") || "-"})`,
    table(
      [
        "path",
        "phase",
        "upstream chunks",
        "chunks received",
        "server CPU ms",
        "server us/upstream chunk",
        "kernel share",
        "server busy (1 core = 100%)",
        "PG backends us/upstream chunk",
        "aimock+harness us/upstream chunk",
        "other load (cores)",
        "stolen (cores)",
      ],
      rows,
    ),
    "  Server = utime+stime from /proc; PGlite's database work runs inside the server process, PostgreSQL's in its backends (own column).",
    `  Upstream chunks = the chunks aimock sent whose text arrived (characters received / ${o.chunkChars}, rounded); every per-chunk`,
    "  figure is divided by them, not by the chunks received, which Parley may merge.",
    "  Other load = machine busy time not accounted for by the columns before it (other programs on this machine), in cores.",
    "  Stolen = CPU time the hypervisor gave to other guests while this machine was runnable (/proc/stat steal), in cores.",
    "  Per-chunk figures are left out (-) where fewer than 1,000 upstream chunks went through; burst CPU includes starting every turn.",
    ...relayRatios(r).map(
      (x) =>
        `  ${x.server} / bare AI SDK relay, CPU per upstream chunk: ${fmt(x.server_, 2)}x (server process), ${fmt(x.withDb, 2)}x (with its PostgreSQL backends); ` +
        `TTFT p50 ${signed(x.ttftAdded)} ms vs the relay.`,
    ),
  ];
}

/** Parley's CPU per upstream chunk over the bare relay's, from the same interleaved rounds. */
export function relayRatios(r: RunReport): { server: string; server_: number; withDb: number; ttftAdded: number }[] {
  return r.suites
    .filter((s) => !s.skipped && s.stream)
    .map((s) => {
      const { seq, seqCpu, relaySeq, relayCpu } = s.stream!;
      const relayUs = perChunk(relayCpu.serverMs, relaySeq.upChunks);
      const db = Number.isFinite(seqCpu.dbMs) ? seqCpu.dbMs : 0;
      return {
        server: LABEL[s.kind],
        server_: perChunk(seqCpu.serverMs, seq.upChunks) / relayUs,
        withDb: perChunk(seqCpu.serverMs + db, seq.upChunks) / relayUs,
        ttftAdded: seq.ttft50 - relaySeq.ttft50,
      };
    });
}
