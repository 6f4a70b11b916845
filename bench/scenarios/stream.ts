// Scenario "stream": one stream at a time through Parley, each right after one read directly from the
// upstream (so both see the same machine load): time to first chunk, total, throughput, server CPU
// per upstream chunk, and (PostgreSQL) database writes per answer.
import { performance } from "node:perf_hooks";
import { cpuBetween, snapshot, sumCpu, type Cpu } from "../harness/cpu";
import { request, type StreamResult } from "../harness/http";
import { log, sleep } from "../harness/lifecycle";
import { authHeaders, createChats, parleyStream } from "../harness/parley";
import { diffWrites, settledWrites } from "../harness/postgres";
import { relayStream } from "../harness/relay";
import { attachArrivals, directStream, upstreamArrivals } from "../harness/upstream";
import type { Ctx, Session, StreamFigures, WritesRow } from "./context";
import { percentile, summarize } from "./stats";

/** p50 of GET /api/chats: session, user, memberships and one small query. */
async function authFloor(s: Session): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await request("GET", `${s.server.origin}/api/chats`, { headers: authHeaders(s.server) });
    ms.push(performance.now() - t);
  }
  return percentile(ms, 0.5);
}

export async function streamScenario(ctx: Ctx, s: Session): Promise<{ figures: StreamFigures; writes?: WritesRow }> {
  const { o, up, direct, relay } = ctx;
  const { server, observer, kind } = s;
  const floor = await authFloor(s);
  // Each Parley run gets a new chat created beforehand (only the turn is measured).
  const chats = await createChats(server, o.runs);
  const before = observer ? await settledWrites(server.origin, authHeaders(server), observer, 0) : undefined;
  await upstreamArrivals(up);
  log(`${s.target} ${kind}: ${o.runs} rounds of three sequential streams: direct, the bare relay, Parley`);
  const tag = `${s.target === "current" ? "" : `${s.target} `}${kind}`;
  const labels = chats.map((_, i) => `${tag} seq ${i}`);
  const directLabels = chats.map((_, i) => `${tag} direct ${i}`);
  const relayLabels = chats.map((_, i) => `${tag} relay ${i}`);
  const seq: StreamResult[] = [];
  const directSeq: StreamResult[] = [];
  const parleyCpu: Cpu[] = [];
  const directCpu: Cpu[] = [];
  const relaySeq: StreamResult[] = [];
  const relayCpu: Cpu[] = [];
  const relayed = { pid: relay.pid };
  for (let i = 0; i < chats.length; i++) {
    let a = await snapshot(up.pid, server);
    directSeq.push(await directStream(up, directLabels[i]));
    let b = await snapshot(up.pid, server);
    directCpu.push(cpuBetween(a, b));
    await sleep(200); // the upstream settles
    a = await snapshot(up.pid, relayed);
    relaySeq.push(await relayStream(relay, relayLabels[i]));
    await sleep(200); // as for Parley below: the same window after the stream
    b = await snapshot(up.pid, relayed);
    relayCpu.push(cpuBetween(a, b));
    a = await snapshot(up.pid, server);
    seq.push(await parleyStream(server, o.acceptEncoding, chats[i], labels[i]));
    await sleep(200); // the turn finishes storing
    b = await snapshot(up.pid, server);
    parleyCpu.push(cpuBetween(a, b));
  }
  const arrivals = await upstreamArrivals(up);
  attachArrivals(seq, labels, arrivals);
  attachArrivals(directSeq, directLabels, arrivals);
  attachArrivals(relaySeq, relayLabels, arrivals);
  const sum = (r: StreamResult[]) => summarize(r, direct.reference, up.expectedChars, o.chunkChars, o.behindPct);
  const figures: StreamFigures = {
    seq: sum(seq),
    directSeq: sum(directSeq),
    seqCpu: sumCpu(parleyCpu),
    directCpu: sumCpu(directCpu),
    relaySeq: sum(relaySeq),
    relayCpu: sumCpu(relayCpu),
    authFloor: floor,
  };
  if (!observer || !before) return { figures };
  const after = await settledWrites(server.origin, authHeaders(server), observer, before.messageIns + 2 * seq.length);
  return { figures, writes: { phase: "sequential", answers: seq.length, ...diffWrites(before, after) } };
}
