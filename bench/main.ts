// `npm run bench`: how much Parley's streaming pipeline adds on top of the model upstream.
//
// A scripted upstream (aimock, in its own process) streams answers at a fixed pace. The bench reads
// them directly (the baseline) and through Parley's POST /api/chat on the production build
// (`npm start`), on PGlite and on PostgreSQL (one or several processes, with Redis), and prints one
// report: time to first text chunk, throughput, server CPU per upstream chunk, database writes per
// answer, bursts of concurrent chats at a model's pace, a long chat, and which aims pass. With
// --compare <git-ref> it builds that ref too and prints B/A ratios of interleaved rounds instead.
//
// Layout: harness/ starts and reads things (aimock, builds, servers, PostgreSQL, SSE, /proc CPU),
// scenarios/ runs the measurements, report/ and compare/ print them. Flags: options.ts (--help).
// It is not a test: it exits 0 when it could run, whatever the figures; 1 when it could not; 2 on bad flags.
import path from "node:path";
import { performance } from "node:perf_hooks";
import { runCompare } from "./compare/run";
import { compareJson, compareText } from "./compare/report";
import { ensureBuild, snapshotBuild } from "./harness/build";
import { cleanup, errorText, installExitHandlers, log, setPortRange } from "./harness/lifecycle";
import { buildRef } from "./harness/ref-build";
import { startRelay } from "./harness/relay";
import { startUpstream } from "./harness/upstream";
import { HELP, parseOptions, type BenchOptions } from "./options";
import { runJson } from "./report/json";
import { machineInfo, type RunReport } from "./report/model";
import { runText } from "./report/text";
import type { Ctx, SuiteResult } from "./scenarios/context";
import { runDirect } from "./scenarios/direct";
import { AIM_RECALL_AT_5, retrievalAimsMet, retrievalText, runRetrievalBench } from "./scenarios/retrieval";
import { runSearchBench, searchText } from "./scenarios/search";
import { closeSession, openSession, runScenarios } from "./scenarios/session";

const ROOT = path.resolve(import.meta.dirname, "..");

async function runAll(ctx: Ctx, appDir: string): Promise<SuiteResult[]> {
  const suites: SuiteResult[] = [];
  for (const kind of ctx.o.dbs) {
    const s = await openSession(ctx, kind, "current", appDir);
    if ("skipped" in s) {
      suites.push({ kind, target: "current", skipped: s.skipped, processes: 0, treeSize: 0, restarts: 0, bursts: new Map(), stored: [], writes: [] });
      continue;
    }
    const result = await runScenarios(ctx, s);
    result.logProblems = await closeSession(s);
    suites.push(result);
  }
  return suites;
}

/** Scenarios that run in this process against a throw-away database: no build, no server. */
const IN_PROCESS = ["search", "retrieval"];

async function run(o: BenchOptions): Promise<string> {
  const inProcess = !o.compare ? o.only.filter((s) => IN_PROCESS.includes(s)) : [];
  const tables: string[] = [];
  const json: Record<string, unknown> = {};
  // Search against a seeded database (bench/scenarios/search.ts).
  if (inProcess.includes("search")) tables.push((json.search = searchText(await runSearchBench(o.dbs, o.pgUrl, o.quick ? 5 : 15, log))));
  // Retrieval quality on a corpus with known answers (bench/scenarios/retrieval.ts).
  if (inProcess.includes("retrieval")) {
    const retrieval = await runRetrievalBench(o.dbs, o.pgUrl, o.embedder, log);
    json.retrieval = { ...retrieval, aim: { recallAt5: AIM_RECALL_AT_5, met: retrievalAimsMet(retrieval) } };
    tables.push(retrievalText(retrieval));
  }
  const text = tables.join("\n\n");
  if (inProcess.length && inProcess.length === o.only.length) return o.json ? JSON.stringify(json, null, 2) : text;
  const streaming = await runStreaming(o);
  // The JSON report stays one JSON document: the in-process tables are printed on stderr then.
  if (text && o.json) log(text);
  return text && !o.json ? `${streaming}\n\n${text}` : streaming;
}

async function runStreaming(o: BenchOptions): Promise<string> {
  const t = performance.now();
  const seconds = () => Math.round((performance.now() - t) / 1000);
  // The build of this tree lives where next.config.ts puts it (NEXT_DIST_DIR, as for `next build`).
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  const ref = o.compare ? await buildRef(ROOT, o.compare) : undefined;
  const buildNote = await ensureBuild(ROOT, distDir, o.skipBuild);
  const appDir = await snapshotBuild(ROOT, distDir);
  const up = await startUpstream(ROOT, o);
  log(`aimock at ${up.url} (pid ${up.pid}), ${up.expectedChunks} chunks per answer, ${up.pacedChunks} in the paced bursts`);
  const relay = await startRelay(ROOT, up, o.serverNodeArgs);
  log(`bare AI SDK relay at ${relay.url} (pid ${relay.pid})`);
  const bursts = o.only.includes("bursts");
  // The bursts through the relay run once per size, as the upstream alone: in compare mode too (once,
  // before the rounds), where the upstream alone does not.
  const direct = await runDirect(o, up, {
    paced: bursts || o.only.includes("soak") || o.only.includes("indexing"),
    bursts: bursts && !ref,
    relay: bursts ? relay : undefined,
  });
  const ctx: Ctx = { o, up, direct, relay };
  if (ref) {
    const results = await runCompare(ctx, ref.dir, appDir);
    const meta = { o, refNote: ref.note, currentNote: buildNote, cpus: machineInfo().cpus };
    await cleanup();
    return o.json ? compareJson(meta, results, seconds()) : `${compareText(meta, results)}\n\nBenchmark time ${seconds()} s.`;
  }
  const report: RunReport = { o, up, direct, suites: await runAll(ctx, appDir), buildNote, machine: machineInfo() };
  await cleanup();
  return o.json ? runJson(report, seconds()) : `${runText(report)}\n\nBenchmark time ${seconds()} s.`;
}

function main(): void {
  let o: BenchOptions | undefined;
  try {
    o = parseOptions(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${errorText(err)} (npm run bench -- --help lists the flags)\n`);
    process.exit(2);
  }
  if (!o) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  setPortRange(o.ports);
  installExitHandlers();
  run(o).then(
    (text) => {
      process.stdout.write(o.json ? `${text}\n` : `\n${text}\n`);
      process.exit(0);
    },
    async (err: unknown) => {
      log(`could not run: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      await cleanup();
      process.exit(1);
    },
  );
}

main();
