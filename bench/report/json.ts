// --json: the whole run as one JSON document (Maps as objects keyed by chat count; NaN and Infinity,
// i.e. "not measured" and "cut", as null), with the aims, the load readings and the headline figures.
import type { BurstFigures, SuiteResult } from "../scenarios/context";
import { aims } from "./aims";
import { figuresOf } from "./figures";
import { loadReadings, loadWarnings, type RunReport } from "./model";

/** A replacer that writes Maps as plain objects. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return value instanceof Map ? Object.fromEntries(value) : value;
}

function suiteJson(s: SuiteResult, relayBursts: Map<number, BurstFigures>) {
  return { ...s, figures: s.skipped ? undefined : figuresOf(s, relayBursts) };
}

export function runJson(r: RunReport, seconds: number): string {
  const { o, up, direct, suites, buildNote, machine } = r;
  const doc = {
    kind: "parley-bench",
    version: 1,
    options: o,
    build: buildNote,
    machine,
    upstream: { chunks: up.expectedChunks, chars: up.expectedChars, burstChunks: up.pacedChunks, burstChars: up.pacedChars },
    load: loadReadings(suites),
    warnings: loadWarnings(suites, machine.cpus),
    direct,
    suites: suites.map((s) => suiteJson(s, direct.relayBursts)),
    aims: aims(r),
    seconds,
  };
  return JSON.stringify(doc, jsonReplacer, 2);
}
