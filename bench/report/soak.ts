// The soak's section: RSS of the server's processes idle, with many chats streaming, and through many
// turns; and whether it stayed put.
import type { RunReport } from "./model";
import { fmt, table } from "./format";
import type { SoakFigures } from "../scenarios/context";

/** The RSS after the last tenth may exceed the one after the first tenth by this much and still count as stable. */
export const SOAK_GROWTH = 0.1;

const total = (r: { perProcess: number[] }) => r.perProcess.reduce((a, b) => a + b, 0);

/** Growth of the summed RSS from after the first tenth of the turns to after the last (NaN: too few readings). */
export function soakGrowth(s: SoakFigures): number {
  const during = s.readings.filter((r) => r.turns > 0 && r.label.startsWith("after"));
  if (during.length < 2) return NaN;
  return total(during.at(-1)!) / total(during[0]) - 1;
}

export function soakSection(r: RunReport): string[] {
  const ran = r.suites.filter((s) => !s.skipped && s.soak);
  if (!ran.length) return [];
  const out: string[] = [];
  for (const s of ran) {
    const soak = s.soak!;
    out.push(
      "",
      `7. Memory (${s.kind}): RSS of the server's processes, MB; ${soak.turns} turns${soak.timedOut ? ` (stopped at --soak-seconds ${r.o.soakSeconds})` : ""}, ${soak.failed} failed` +
        `${soak.firstError ? ` (first: ${soak.firstError})` : ""}`,
      table(
        ["when", "turns", "s", "RSS per process", "RSS total"],
        soak.readings.map((x) => [x.label, `${x.turns}`, fmt(x.seconds), x.perProcess.map((m) => fmt(m)).join(" + "), fmt(total(x))]),
      ),
      `  Growth from after the first tenth of the turns to after the last: ${fmt(soakGrowth(soak) * 100, 1)}% (stable: <= ${SOAK_GROWTH * 100}%).`,
    );
  }
  return out;
}
