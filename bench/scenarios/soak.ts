// Scenario "soak" (not in the default run: --only soak): memory of the server over many turns. RSS of
// every server process idle after warm-up, while --soak-concurrency chats stream a paced answer at
// once, then through --soak-turns short turns (that many chats busy at once, a new chat every ten
// turns), read every tenth of the way; bounded by --soak-seconds. Stable = the RSS after the last
// tenth is within a few percent of the RSS after the first (the first tenth warms caches up).
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { processTree } from "../harness/cpu";
import { log, sleep } from "../harness/lifecycle";
import { createChats, parleyStream } from "../harness/parley";
import { PACED, SOAK } from "../harness/upstream";
import type { Ctx, RssReading, Session, SoakFigures } from "./context";

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const reading = (s: Session, label: string, turns: number, t0: number): RssReading => ({
  label,
  turns,
  seconds: (performance.now() - t0) / 1000,
  perProcess: processTree(s.server.pid).map(rssMb).filter(Number.isFinite),
});

export async function soakScenario(ctx: Ctx, s: Session): Promise<SoakFigures> {
  const { o } = ctx;
  const { server, kind } = s;
  const t0 = performance.now();
  await sleep(2000);
  const readings = [reading(s, "idle, after warm-up", 0, t0)];

  log(`${s.target} ${kind}: soak: ${o.soakConcurrency} paced chats at once`);
  const ids = await createChats(server, o.soakConcurrency);
  const paced = Promise.all(ids.map((id, i) => parleyStream(server, o.acceptEncoding, id, `${PACED} soak ${i}`)));
  await sleep(ctx.direct.paced.reference > 0 ? ctx.direct.paced.reference / 2 : 5000);
  readings.push(reading(s, `${o.soakConcurrency} chats streaming`, 0, t0));
  await paced;

  log(`${s.target} ${kind}: soak: ${o.soakTurns} short turns, ${o.soakConcurrency} at once, at most ${o.soakSeconds} s`);
  const deadline = performance.now() + o.soakSeconds * 1000;
  const step = Math.max(1, Math.floor(o.soakTurns / 10));
  let started = 0;
  let finished = 0;
  let failed = 0;
  let firstError: string | undefined;
  let nextReading = step;
  const worker = async (w: number) => {
    let chat = "";
    for (let k = 0; started < o.soakTurns && performance.now() < deadline; k++) {
      started++;
      if (k % 10 === 0) [chat] = await createChats(server, 1);
      const r = await parleyStream(server, o.acceptEncoding, chat, `${SOAK} ${w}-${k}`);
      finished++;
      if (r.error) {
        failed++;
        firstError ??= r.error;
      }
      if (finished >= nextReading) {
        nextReading += step;
        readings.push(reading(s, `after ${finished} turns`, finished, t0));
      }
    }
  };
  await Promise.all(Array.from({ length: o.soakConcurrency }, (_, w) => worker(w)));
  await sleep(2000);
  readings.push(reading(s, "idle, after the soak", finished, t0));
  return { readings, turns: finished, failed, firstError, timedOut: finished < o.soakTurns };
}
