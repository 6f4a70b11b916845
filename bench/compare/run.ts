// Compare mode: the baseline build (A, a git ref) and this tree's (B) each get a server per database;
// the selected scenarios run on them in rounds, A then B in each round, so both see the same machine
// load over time; every round gives each its figures.
import { log } from "../harness/lifecycle";
import type { Db } from "../options";
import type { BurstFigures, Ctx, SuiteResult } from "../scenarios/context";
import { closeSession, openSession, runScenarios } from "../scenarios/session";

export interface CompareRounds {
  kind: Db;
  skipped?: string;
  rounds: { a: SuiteResult; b: SuiteResult }[];
  /** The bare relay's bursts, once per size before the rounds: what every round's bursts are set against. */
  relayBursts?: Map<number, BurstFigures>;
}

export async function runCompare(ctx: Ctx, dirA: string, dirB: string): Promise<CompareRounds[]> {
  const out: CompareRounds[] = [];
  for (const kind of ctx.o.dbs) {
    const a = await openSession(ctx, kind, "A", dirA);
    if ("skipped" in a) {
      out.push({ kind, skipped: a.skipped, rounds: [] });
      continue;
    }
    const b = await openSession(ctx, kind, "B", dirB);
    if ("skipped" in b) {
      await closeSession(a);
      out.push({ kind, skipped: b.skipped, rounds: [] });
      continue;
    }
    const rounds: CompareRounds["rounds"] = [];
    for (let i = 1; i <= ctx.o.rounds; i++) {
      log(`compare ${kind}: round ${i}/${ctx.o.rounds}: A`);
      const ra = await runScenarios(ctx, a);
      log(`compare ${kind}: round ${i}/${ctx.o.rounds}: B`);
      const rb = await runScenarios(ctx, b);
      rounds.push({ a: ra, b: rb });
    }
    const [pa, pb] = [await closeSession(a), await closeSession(b)];
    if (rounds.length) {
      rounds.at(-1)!.a.logProblems = pa;
      rounds.at(-1)!.b.logProblems = pb;
    }
    out.push({ kind, rounds, relayBursts: ctx.direct.relayBursts });
  }
  return out;
}
