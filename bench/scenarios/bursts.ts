// Scenario "bursts": 10, 50, 200 (--concurrency) chats start at once, each streaming the paced answer
// (a model's pace). Streams still running at the deadline are cut and the server is killed and
// restarted, so no turn runs on into the next phase. On PostgreSQL, halfway through, the text the
// database holds is compared with the text the harness had already shown.
import { snapshot } from "../harness/cpu";
import { errorText, killNow, log, sleep } from "../harness/lifecycle";
import { authHeaders, createChats, launch, parleyStream, warmUpAfterRestart } from "../harness/parley";
import { diffWrites, settledWrites, type Writes } from "../harness/postgres";
import { attachArrivals, PACED, upstreamArrivals } from "../harness/upstream";
import type { BurstFigures, Ctx, Session, StoredReading, WritesRow } from "./context";
import { measuredBurst, summarize } from "./stats";

export interface BurstsOutcome {
  bursts: Map<number, BurstFigures>;
  stored: StoredReading[];
  writes: WritesRow[];
}

export async function burstsScenario(ctx: Ctx, s: Session): Promise<BurstsOutcome> {
  const { o, up, direct } = ctx;
  const { server, observer, kind } = s;
  const out: BurstsOutcome = { bursts: new Map(), stored: [], writes: [] };
  const settled = (expect: number) => settledWrites(server.origin, authHeaders(server), observer!, expect);
  const tag = `${s.target === "current" ? "" : `${s.target} `}${kind}`;
  for (const n of o.concurrency) {
    const ids = await createChats(server, n);
    let before: Writes | undefined;
    if (observer) before = await settled(0);
    else await sleep(500);
    log(`${s.target} ${kind}: ${n} concurrent paced chats`);
    const labels = ids.map((_, i) => `${tag} ${PACED} c${n}-${i}`);
    const progress = { chars: 0, streams: 0 };
    // Halfway through a direct paced stream (well before the deadline) every answer is mid-stream:
    // compare what the harness (the browsers) had shown with what the database holds.
    const midMs = direct.paced.reference / 2;
    const mid: Promise<StoredReading> | undefined = observer
      ? sleep(midMs).then(async () => {
          // Read as the query is sent, so both figures describe the same moment.
          const at = { n, atMs: midMs, shown: progress.chars, showing: progress.streams };
          try {
            return { ...at, stored: await observer.storedChars(ids) };
          } catch (err) {
            return { ...at, stored: NaN, error: errorText(err) };
          }
        })
      : undefined;
    const { results, cut, cpu } = await measuredBurst(
      n,
      direct.paced.deadline,
      (i, opts) => parleyStream(server, o.acceptEncoding, ids[i], labels[i], { ...opts, progress }),
      () => snapshot(up.pid, server),
      () => killNow(server.child), // nothing may keep running into the next phase
    );
    if (mid) out.stored.push(await mid);
    attachArrivals(results, labels, await upstreamArrivals(up));
    out.bursts.set(n, { ...summarize(results, direct.paced.reference, up.pacedChars, o.chunkChars, o.behindPct), cpu, killed: cut });
    if (cut) {
      log(`${s.target} ${kind}: ${n} concurrent: cut at the deadline, server killed; restarting it`);
      server.restarts++;
      await launch(server);
    }
    if (observer && before) {
      const started = results.filter((r) => r.status === 200).length;
      const after = await settled(before.messageIns + 2 * started);
      out.writes.push({ phase: `${n} concurrent, paced${cut ? " (cut)" : ""}`, answers: n, ...diffWrites(before, after) });
    }
    if (cut) await warmUpAfterRestart(server, o.acceptEncoding);
  }
  return out;
}
