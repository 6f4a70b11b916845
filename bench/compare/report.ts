// Compare mode's report: per database and figure, A's and B's medians over the rounds with their
// range, and B/A (the median of the per-round ratios, and their lowest and highest), so the noise
// between rounds of the same build is visible next to the difference between the builds.
import { figuresOf } from "../report/figures";
import { fmt, signed, table } from "../report/format";
import { jsonReplacer } from "../report/json";
import { LABEL, loadReadings, loadWarnings } from "../report/model";
import { percentile } from "../scenarios/stats";
import type { BenchOptions } from "../options";
import type { CompareRounds } from "./run";

export interface FigureComparison {
  figure: string;
  a: number[];
  b: number[];
  /** B/A per round; only when every round of both is above zero (a ratio of differences that cross zero means nothing). */
  ratios: number[];
  /** B-A per round. */
  diffs: number[];
  aMedian: number;
  bMedian: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  diff: number;
}

export function compareFigures(c: CompareRounds): FigureComparison[] {
  const perRound = c.rounds.map((r) => ({ a: figuresOf(r.a, c.relayBursts), b: figuresOf(r.b, c.relayBursts) }));
  const names = [...new Set(perRound.flatMap((r) => [...Object.keys(r.a), ...Object.keys(r.b)]))];
  const out: FigureComparison[] = [];
  for (const figure of names) {
    const a = perRound.map((r) => r.a[figure] ?? NaN);
    const b = perRound.map((r) => r.b[figure] ?? NaN);
    if (!a.some(Number.isFinite) && !b.some(Number.isFinite)) continue; // not measured (e.g. too few chunks)
    const positive = [...a, ...b].filter(Number.isFinite).every((x) => x > 0);
    const ratios = positive ? a.map((x, i) => b[i] / x).filter(Number.isFinite) : [];
    const diffs = a.map((x, i) => b[i] - x).filter(Number.isFinite);
    out.push({
      figure,
      a,
      b,
      ratios,
      diffs,
      aMedian: percentile(a, 0.5),
      bMedian: percentile(b, 0.5),
      ratio: percentile(ratios, 0.5),
      ratioMin: percentile(ratios, 0),
      ratioMax: percentile(ratios, 1),
      diff: percentile(diffs, 0.5),
    });
  }
  return out;
}

const digits = (x: number) => (Math.abs(x) >= 100 ? 0 : Math.abs(x) >= 10 ? 1 : 2);
const num = (x: number) => fmt(x, digits(x));
const range = (v: number[]) => {
  const f = v.filter(Number.isFinite);
  return f.length ? `${num(Math.min(...f))}..${num(Math.max(...f))}` : "-";
};

export interface CompareMeta {
  o: BenchOptions;
  refNote: string;
  currentNote: string;
  cpus: number;
}

export function compareText(meta: CompareMeta, results: CompareRounds[]): string {
  const { o } = meta;
  const suites = results.flatMap((c) => c.rounds.flatMap((r) => [r.a, r.b]));
  const out = [
    "Parley streaming benchmark: compare mode",
    "=======================================",
    `A = ${meta.refNote}. B = this tree, ${meta.currentNote}.`,
    `${o.rounds} rounds, A then B in each, on one aimock; scenarios: ${o.only.join(", ")}; ${o.runs} streams of ${o.chunks} chunks per round` +
      (o.only.includes("bursts") ? `; bursts of ${o.concurrency.join(", ")} chats of ${o.burstChunks} chunks` : "") +
      ".",
    ...(o.only.includes("bursts") ? ['The bare relay\'s bursts ("relay" figures) ran once per size before the rounds; every round is set against them.'] : []),
    "B/A below 1: B is lower (faster, cheaper) except for throughput and stored/shown, where higher is better. The ratio is the",
    "median of the per-round ratios, with their lowest..highest; A and B ranges show how much one build moves between rounds.",
    'B-A is the median of the per-round differences. Figures that can be zero or below ("added") get no ratio where any',
    "round was: read their B-A and the absolute figures. Rows only where the run measured something.",
    ...loadWarnings(suites, meta.cpus),
  ];
  for (const c of results) {
    out.push("", `${LABEL[c.kind]}${c.skipped ? `: skipped: ${c.skipped}` : ""}`);
    if (!c.rounds.length) continue;
    out.push(
      table(
        ["figure", "A median", "A range", "B median", "B range", "B/A", "B/A lowest..highest", "B-A"],
        compareFigures(c).map((f) => [
          f.figure,
          num(f.aMedian),
          range(f.a),
          num(f.bMedian),
          range(f.b),
          fmt(f.ratio, 3),
          f.ratios.length ? `${fmt(f.ratioMin, 3)}..${fmt(f.ratioMax, 3)}` : "-",
          signed(f.diff, digits(f.diff)),
        ]),
      ),
    );
    for (const side of ["a", "b"] as const) {
      const p = c.rounds.at(-1)![side].logProblems;
      if (p?.count) out.push(`  ${side.toUpperCase()} server log: ${p.count} warning/error line(s), first: ${p.first.join(" | ")}`);
    }
  }
  return out.join("\n");
}

export function compareJson(meta: CompareMeta, results: CompareRounds[], seconds: number): string {
  const suites = results.flatMap((c) => c.rounds.flatMap((r) => [r.a, r.b]));
  const doc = {
    kind: "parley-bench-compare",
    version: 1,
    options: meta.o,
    a: meta.refNote,
    b: meta.currentNote,
    load: loadReadings(suites),
    warnings: loadWarnings(suites, meta.cpus),
    databases: results.map((c) => ({
      kind: c.kind,
      skipped: c.skipped,
      figures: c.rounds.length ? compareFigures(c) : [],
      rounds: c.rounds.map((r) => ({ a: figuresOf(r.a, c.relayBursts), b: figuresOf(r.b, c.relayBursts) })),
    })),
    seconds,
  };
  return JSON.stringify(doc, jsonReplacer, 2);
}
