// A server under test from start to stop: its throw-away database (PostgreSQL), `npm start` of one
// build, first-run setup, warm-up turns on every process; then the selected scenarios, in the order
// stream, long chat, bursts, indexing, soak.
import { processTree } from "../harness/cpu";
import { killGroup, log } from "../harness/lifecycle";
import { createChats, logProblems, parleyStream, setupAdmin, startParley, tail } from "../harness/parley";
import { createPgDatabase, pgObserver } from "../harness/postgres";
import type { Db } from "../options";
import { burstsScenario } from "./bursts";
import type { Ctx, Session, SuiteResult } from "./context";
import { indexingScenario } from "./indexing";
import { longChatScenario } from "./long-chat";
import { soakScenario } from "./soak";
import { streamScenario } from "./stream";

/** Starts a server of the build in `appDir`; `{ skipped }` when PostgreSQL is not reachable. */
export async function openSession(ctx: Ctx, kind: Db, target: string, appDir: string): Promise<Session | { skipped: string }> {
  const { o, up } = ctx;
  let pg;
  if (kind === "postgresql") {
    const made = await createPgDatabase(o.pgUrl);
    if ("skipped" in made) {
      log(`postgresql: skipped: ${made.skipped}`);
      return { skipped: made.skipped };
    }
    pg = made;
  }
  log(`${target} ${kind}: starting the server`);
  const server = await startParley(o, up, { kind, target, appDir, databaseUrl: pg?.url });
  log(`${target} ${kind}: healthy after ${(server.startMs / 1000).toFixed(1)} s (pid ${server.pid}); first-run setup in Chromium`);
  await setupAdmin(server);
  const observer = pg ? await pgObserver(pg.url) : undefined;
  if (observer) server.backendPids = () => observer.backendPids();
  // Every server process warms up: the cluster hands out connections in turn and a keep-alive
  // connection stays with its process, so each warm-up turn has a connection of its own.
  log(`${target} ${kind}: warm-up`);
  for (const id of await createChats(server, o.warmup * server.processes)) {
    const r = await parleyStream(server, o.acceptEncoding, id, `${target} ${kind} warmup`, { fresh: true });
    if (r.error) throw new Error(`${kind}: a warm-up turn failed: ${r.error}\n${tail(server.logFile)}`);
  }
  return { kind, target, server, pg, observer };
}

/** One run of the selected scenarios. */
export async function runScenarios(ctx: Ctx, s: Session): Promise<SuiteResult> {
  const { only } = ctx.o;
  const restartsBefore = s.server.restarts;
  const result: SuiteResult = {
    kind: s.kind,
    target: s.target,
    pgVersion: s.pg?.version,
    processes: s.server.processes,
    treeSize: 1,
    restarts: 0,
    bursts: new Map(),
    stored: [],
    writes: [],
  };
  if (only.includes("stream")) {
    const { figures, writes } = await streamScenario(ctx, s);
    result.stream = figures;
    if (writes) result.writes.push(writes);
  }
  result.treeSize = processTree(s.server.pid).length;
  if (only.includes("long")) result.longChat = await longChatScenario(ctx, s);
  if (only.includes("bursts")) {
    const b = await burstsScenario(ctx, s);
    result.bursts = b.bursts;
    result.stored = b.stored;
    result.writes.push(...b.writes);
  }
  if (only.includes("indexing")) result.indexing = await indexingScenario(ctx, s);
  if (only.includes("soak")) result.soak = await soakScenario(ctx, s);
  result.restarts = s.server.restarts - restartsBefore;
  return result;
}

export async function closeSession(s: Session): Promise<{ count: number; first: string[] }> {
  log(`${s.target} ${s.kind}: stopping the server`);
  await killGroup(s.server.child);
  return logProblems(s.server.logFile);
}
