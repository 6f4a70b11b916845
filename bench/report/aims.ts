// The aims and whether this run met them: time to first chunk added, throughput of one stream, and
// no chat behind at 200 at once on PostgreSQL.
import { fmt, pct, signed, table } from "./format";
import { SOAK_GROWTH, soakGrowth } from "./soak";
import { relayRatios } from "./streams";
import { LABEL, type RunReport } from "./model";

export const AIMS = {
  ttftAddedMs: 25,
  throughputRatio: 0.8,
  behindAt: 200,
  relayCpuRatio: 1.5,
  longChatPageMs: 1500,
  longTurnAddedMs: 50,
  manyChatsAppMs: 1000,
};

export interface Aim {
  aim: string;
  server: string;
  measured: string;
  /** PASS, MISS, or n/a when the scenario did not run. */
  result: "PASS" | "MISS" | "n/a";
}

export function aims(r: RunReport): Aim[] {
  const ran = r.suites.filter((s) => !s.skipped);
  const out: Aim[] = [];
  for (const s of ran) {
    if (!s.stream) continue;
    const added = s.stream.seq.ttft50 - s.stream.directSeq.ttft50;
    out.push({
      aim: `TTFT added at p50 <= ${AIMS.ttftAddedMs} ms`,
      server: LABEL[s.kind],
      measured: `${signed(added)} ms`,
      result: added <= AIMS.ttftAddedMs ? "PASS" : "MISS",
    });
  }
  for (const s of ran) {
    if (!s.stream) continue;
    const ratio = s.stream.seq.rate50 / s.stream.directSeq.rate50;
    out.push({
      aim: `throughput (chars/s) >= ${pct(AIMS.throughputRatio)} of direct (one stream)`,
      server: LABEL[s.kind],
      measured: pct(ratio),
      result: ratio >= AIMS.throughputRatio ? "PASS" : "MISS",
    });
  }
  for (const x of relayRatios(r)) {
    out.push({
      aim: `server CPU per upstream chunk <= ${AIMS.relayCpuRatio}x the bare AI SDK relay's (one stream)`,
      server: x.server,
      measured: `${fmt(x.server_, 2)}x`,
      result: Number.isFinite(x.server_) ? (x.server_ <= AIMS.relayCpuRatio ? "PASS" : "MISS") : "n/a",
    });
  }
  const lc = ran.find((s) => s.kind === "postgresql")?.longChat;
  const [, chatPage, toModel] = lc?.rows ?? [];
  if (lc && chatPage && toModel) {
    out.push({
      aim: `a chat of ${lc.messages} messages opens (server-rendered page) in < ${AIMS.longChatPageMs} ms`,
      server: LABEL.postgresql,
      measured: `${fmt(chatPage.long)} ms`,
      result: chatPage.long < AIMS.longChatPageMs ? "PASS" : "MISS",
    });
    const added = toModel.long - toModel.fresh;
    out.push({
      aim: `its next turn reaches the model <= ${AIMS.longTurnAddedMs} ms later than a new chat's`,
      server: LABEL.postgresql,
      measured: `${signed(added)} ms`,
      result: added <= AIMS.longTurnAddedMs ? "PASS" : "MISS",
    });
  }
  const [app] = lc?.manyRows ?? [];
  if (lc && app)
    out.push({
      aim: `a member with ${lc.chats} more chats opens the app in < ${AIMS.manyChatsAppMs} ms`,
      server: LABEL.postgresql,
      measured: `${fmt(app.long)} ms`,
      result: app.long < AIMS.manyChatsAppMs ? "PASS" : "MISS",
    });
  for (const s of ran) {
    if (!s.soak) continue;
    const growth = soakGrowth(s.soak);
    out.push({
      aim: `RSS stable over ${s.soak.turns} turns (growth <= ${SOAK_GROWTH * 100}% after the first tenth)`,
      server: LABEL[s.kind],
      measured: `${fmt(growth * 100, 1)}%`,
      result: Number.isFinite(growth) ? (growth <= SOAK_GROWTH && !s.soak.failed ? "PASS" : "MISS") : "n/a",
    });
  }
  const pgAt = ran.find((s) => s.kind === "postgresql")?.bursts.get(AIMS.behindAt);
  out.push({
    aim: `no stream behind at ${AIMS.behindAt} concurrent chats on PostgreSQL (paced: ${r.up.pacedChunks} chunks, one every ${r.o.burstChunkMs} ms)`,
    server: LABEL.postgresql,
    measured: pgAt ? `${pgAt.behind}/${pgAt.n} behind` : "not run",
    result: pgAt ? (pgAt.behind === 0 ? "PASS" : "MISS") : "n/a",
  });
  return out;
}

export function aimsSection(r: RunReport): string[] {
  return [
    "",
    "Aims",
    table(
      ["aim", "server", "measured", "result"],
      aims(r).map((a) => [a.aim, a.server, a.measured, a.result]),
      ["l", "l", "r", "l"],
    ),
  ];
}
