// The turns of a server that stops (SIGTERM/SIGINT; lib/startup.ts stopServer): each ends with what
// was shown stored. Alone (no Redis), no other instance can go on with an answer: it is stopped now
// and marked interrupted, and a restart shows it with Continue. With Redis (and PostgreSQL) instances
// share the work: answers go on here until shortly before the deadline; those still running then are
// stored as far as they were shown, marked interrupted and handed over (stream-registry.ts), and
// another instance continues them as their owner (continue-decided.ts).
import { continueHandedOver } from "./continue-decided";
import type { Registry } from "./stream-registry";
import type { TurnSlots } from "./turn-slots";

/** Kept at the end of the time given for the turns still running to stop and be stored (a busy machine needs seconds). */
const STOP_TURNS_MS = 2_500;

const until = (deadline: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref());

/** Ends this process's turns by `deadline` (ms since the epoch). */
export async function endTurns(registry: Registry, deadline: number): Promise<void> {
  const turns = () => [...registry.local.values()];
  const allEnded = () => Promise.all(turns().map((t) => t.ended));
  if (registry.kind === "redis") await Promise.race([allEnded(), until(deadline - STOP_TURNS_MS)]);
  const running = turns();
  for (const turn of running) turn.abort(registry.kind === "redis" ? "handoff" : "shutdown");
  await Promise.race([allEnded(), until(deadline)]);
  if (!running.length) return;
  if (registry.kind !== "redis") return console.log(`[shutdown] ${running.length} running answer(s) kept as interrupted`);
  await Promise.all(
    running.map((t) =>
      registry.publishHandoff(t.chatId, t.messageId).catch((err: unknown) => console.error(`[shutdown] chat ${t.chatId}: could not hand its answer over`, err)),
    ),
  );
  console.log(`[shutdown] ${running.length} running answer(s) handed over to the other instances`);
}

/** Continues here the answers other instances hand over when they stop (not once this one stops too). */
export function takeHandoffs(registry: Registry, slots: TurnSlots): void {
  registry.onHandoff(({ chatId, messageId }) => {
    if (!slots.closed) void continueHandedOver(chatId, messageId);
  });
}
