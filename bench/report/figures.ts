// The headline figures of one server's run as flat, named numbers: what --json lists per server and
// what compare mode sets side by side (A against B, round by round). Lower is better unless named
// otherwise ("throughput", "stored/shown"). The bursts' figures include the bare relay's at the same
// size, when it ran (it runs once per size, not per server).
import { soakGrowth } from "./soak";
import { perChunk } from "./streams";
import type { BurstFigures, SuiteResult } from "../scenarios/context";

export type Figures = Record<string, number>;

/** Infinity (a cut stream) as NaN, so medians and ratios skip it. */
const finite = (x: number) => (Number.isFinite(x) ? x : NaN);

export function figuresOf(s: SuiteResult, relayBursts: Map<number, BurstFigures> = new Map()): Figures {
  const f: Figures = {};
  if (s.stream) {
    const { seq, directSeq: d, seqCpu, authFloor } = s.stream;
    f["TTFT p50, ms"] = seq.ttft50;
    f["TTFT added p50, ms"] = seq.ttft50 - d.ttft50;
    f["before upstream call p50, ms"] = seq.toUpstream50 - d.toUpstream50;
    f["total added p50, ms"] = seq.total50 - d.total50;
    f["throughput vs direct"] = seq.rate50 / d.rate50;
    f["server CPU us/upstream chunk, one stream"] = perChunk(seqCpu.serverMs, seq.upChunks);
    f["server CPU per chunk / bare relay's"] = perChunk(seqCpu.serverMs, seq.upChunks) / perChunk(s.stream.relayCpu.serverMs, s.stream.relaySeq.upChunks);
    f["signed-in GET p50, ms"] = authFloor;
  }
  for (const w of s.writes) {
    if (w.phase === "sequential") f["DB writes per answer, one stream"] = (w.messageIns + w.messageUpd + w.blockIns + w.blockUpd) / w.answers;
  }
  for (const [n, b] of s.bursts) {
    f[`${n} chats: behind`] = b.behind;
    f[`${n} chats: TTFT p50, ms`] = finite(b.ttft50);
    f[`${n} chats: total p50, ms`] = finite(b.total50);
    f[`${n} chats: server CPU us/upstream chunk`] = perChunk(b.cpu.serverMs, b.upChunks);
    const relay = relayBursts.get(n);
    if (relay) {
      const relayUs = perChunk(relay.cpu.serverMs, relay.upChunks);
      f[`${n} chats: relay behind`] = relay.behind;
      f[`${n} chats: relay server CPU us/upstream chunk`] = relayUs;
      f[`${n} chats: server CPU per chunk / relay's`] = perChunk(b.cpu.serverMs, b.upChunks) / relayUs;
    }
  }
  for (const m of s.stored) if (m.shown > 0) f[`${m.n} chats: stored/shown mid-burst`] = m.stored / m.shown;
  if (s.longChat) {
    const [page, chatPage, toModel, turn] = s.longChat.rows;
    if (turn) {
      f["long chat: newest page added, ms"] = page.long - page.fresh;
      f["long chat: chat page added, ms"] = chatPage.long - chatPage.fresh;
      f["long chat: turn to model call added, ms"] = toModel.long - toModel.fresh;
      f["long chat: turn TTFT added, ms"] = turn.long - turn.fresh;
    }
    const [app] = s.longChat.manyRows;
    if (app) f["many chats: app page, ms"] = app.long;
  }
  if (s.soak) {
    const sum = (i: number) => s.soak!.readings[i]?.perProcess.reduce((a, b) => a + b, 0) ?? NaN;
    f["soak: RSS idle, MB"] = sum(0);
    f["soak: RSS while chats stream, MB"] = sum(1);
    f["soak: RSS growth over the turns"] = soakGrowth(s.soak);
  }
  return f;
}
