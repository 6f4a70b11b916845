// The report's section on indexing beside streams: the same burst of paced chats alone and while a
// large PDF is indexed in the server process, side by side, with how long the indexing took.
import type { Summary } from "../scenarios/stats";
import { fmt, pct, table } from "./format";
import { LABEL, type RunReport } from "./model";

export function indexingSection(r: RunReport): string[] {
  const ran = r.suites.filter((s) => !s.skipped && s.indexing);
  if (!ran.length) return [];
  const ref = r.direct.paced.reference;
  const directRate = r.direct.paced.summary.rate50;
  const row = (label: string, phase: string, s: Summary) => [
    label,
    phase,
    fmt(s.ttft50, 1),
    fmt(s.ttft95, 1),
    fmt(s.total50),
    fmt(s.total95),
    fmt(s.total50 / ref, 2),
    pct(s.rate50 / directRate),
    `${s.behind}/${s.n}`,
    `${s.errors}`,
  ];
  const rows = ran.flatMap((s) => [row(LABEL[s.kind], "alone", s.indexing!.alone), row(LABEL[s.kind], "beside indexing", s.indexing!.beside)]);
  const first = ran[0].indexing!;
  const notes = ran.map((s) => {
    const x = s.indexing!;
    const took = Number.isFinite(x.indexMs) ? `indexed in ${fmt(x.indexMs / 1000, 1)} s` : `not indexed (${x.status}${x.error ? `: ${x.error}` : ""})`;
    const passages = Number.isFinite(x.passages) ? `, ${x.passages} passages` : "";
    return `  ${LABEL[s.kind]}: the ${x.pages}-page PDF (${fmt(x.pdfBytes / 1024 / 1024, 1)} MB) ${took}${passages}; indexing ran through ${fmt(x.overlapMs / 1000, 1)} s of the burst's ${fmt(x.burstMs / 1000, 1)} s.`;
  });
  return [
    "",
    `Indexing beside streams: ${first.chats} paced chats at once, alone and just after a ${first.pages}-page PDF was uploaded (indexed in the server process, embeddings from aimock)`,
    `  total / direct = p50 total over the paced direct p50 (${fmt(ref)} ms); chars/s vs direct = p50 rate over the paced direct one; behind = total more than ${r.o.behindPct}% over direct.`,
    table(["server", "phase", "TTFT p50", "TTFT p95", "total p50", "total p95", "total/direct", "chars/s vs direct", "behind", "errors"], rows, ["l", "l"]),
    ...notes,
  ];
}
