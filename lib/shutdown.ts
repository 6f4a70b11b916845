// The app's part of an orderly stop: scripts/graceful-stop.mjs runs it on SIGTERM and SIGINT (through
// the hook installStop sets, from instrumentation.ts) once the server takes no new connections. No
// new turn starts (503, try again); the turns this process runs end with what was shown stored; the
// sweeps stop and the database closes (freeing the embedded database's data directory).
// Alone (no Redis), no other instance can go on with an answer: it is stopped now and marked
// interrupted, and a restart shows it with Continue. With Redis (and PostgreSQL) instances share the
// work: answers go on here until shortly before the deadline; those still running then are stored
// as far as they were shown, marked interrupted and handed over (stream-registry.ts), and another
// instance continues them (continue-decided.ts).
import { config } from "./config";
import { continueHandedOver } from "./chat/continue-decided";
import { currentStreamRegistry, streamRegistry, type Registry } from "./chat/stream-registry";
import { processTurnSlots } from "./chat/turn-slots";
import { shutdown } from "./startup";

/** Where scripts/graceful-stop.mjs looks for the app's stop. */
const STOP_HOOK = Symbol.for("parley.shutdown.hook");
/** Kept at the end of the app's time for the turns still running to stop and be stored. */
const STOP_TURNS_MS = 1_500;

const until = (deadline: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref());

/** Ends this process's turns by `deadline`: stored as far as they were shown; handed over when others can go on. */
async function endTurns(registry: Registry, deadline: number) {
  const turns = () => [...registry.local.values()];
  const allEnded = () => Promise.all(turns().map((t) => t.ended));
  if (registry.kind === "redis") await Promise.race([allEnded(), until(deadline - STOP_TURNS_MS)]);
  const running = turns();
  for (const turn of running) turn.abort("shutdown");
  await Promise.race([allEnded(), until(deadline)]);
  if (!running.length) return;
  if (registry.kind !== "redis") return console.log(`[shutdown] ${running.length} running answer(s) kept as interrupted`);
  await Promise.all(running.map((t) => registry.publishHandoff(t.chatId, t.messageId).catch((err: unknown) => console.error(`[shutdown] chat ${t.chatId}: could not hand its answer over`, err))));
  console.log(`[shutdown] ${running.length} running answer(s) handed over to the other instances`);
}

/** Stops this process's work by `deadline` (ms since the epoch). */
export async function stopServer({ deadline }: { deadline: number }): Promise<void> {
  processTurnSlots().close();
  const registry = await currentStreamRegistry()?.catch(() => undefined);
  if (registry) await endTurns(registry, deadline);
  await shutdown();
  await registry?.close().catch(() => {});
}

/** Lets graceful-stop.mjs call stopServer; with Redis, answers other instances hand over are continued here. */
export async function installStop(): Promise<void> {
  (globalThis as { [STOP_HOOK]?: typeof stopServer })[STOP_HOOK] = stopServer;
  if (!config().REDIS_URL) return;
  const registry = await streamRegistry();
  registry.onHandoff(({ chatId, messageId }) => {
    if (processTurnSlots().closed) return; // this instance is stopping too
    void continueHandedOver(chatId, messageId);
  });
}
