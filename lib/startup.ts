// What must hold before the first request: the settings are valid, the database is open and migrated,
// the secret key is the one this database's secrets were written with, and sign-in is set up.
// Memoised per process; instrumentation.ts runs it at boot (Next serves no request before it ends)
// and exits on failure. Start-up depends on the parts it starts; none of them imports it. Its
// counterpart, stopServer, is what scripts/graceful-stop.mjs runs on SIGTERM/SIGINT (installStop).
import cluster from "node:cluster";
import { getAuth, forgetAuth } from "./auth/auth";
import { config } from "./config";
import { processOnce } from "./process-once";
import { closeDatabase, database } from "./db/client";
import { migratePGlite, migratePostgres, type MigrationResult } from "./db/migrator";
import { ensureVectorExtension } from "./knowledge/vector-store";
import { startIndexer } from "./knowledge/indexer";
import { initKeyring } from "./security/keyring";
import { heartbeatMs, markInterrupted } from "./messages/recovery";
import { startTimeoutSweep } from "./approvals/approval-timeouts";
import { continueDecided } from "./turn/continue-decided";
import { endTurns, takeHandoffs } from "./turn/stop-turns";
import { currentStreamRegistry, streamRegistry } from "./turn/stream-registry";
import { processTurnSlots } from "./turn/turn-slots";
import { seedAllTeams } from "./providers/seed-env";
import { RETENTION_SWEEP_MS, sweepRetention } from "./retention/retention";
import { needsSetup } from "./teams/setup";
import { setupCode } from "./teams/setup-code";
import { startOtlpTracing } from "./observability/tracing";
import { endLiveStreams } from "./live/live-channel";
import { startDispatcher } from "./notifications/dispatcher";
import { startWebhookSender } from "./notifications/webhook-sender";
import { startMcpOutageEvents } from "./notifications/mcp-outages";
import { startApprovalEmailSweep } from "./notifications/approval-email";

const SWEEP = Symbol.for("parley.startup.sweep");
const RETENTION = Symbol.for("parley.startup.retention");
const TIMEOUTS = Symbol.for("parley.startup.approvalTimeouts");
const NOTIFY = Symbol.for("parley.startup.notifications");
const WEBHOOKS = Symbol.for("parley.startup.webhooks");
const OUTAGES = Symbol.for("parley.startup.mcpOutages");
const APPROVAL_MAIL = Symbol.for("parley.startup.approvalEmails");
const INDEXER = Symbol.for("parley.startup.knowledgeIndexer");
const holder = globalThis as {
  [SWEEP]?: NodeJS.Timeout;
  [RETENTION]?: NodeJS.Timeout;
  [TIMEOUTS]?: () => void;
  [NOTIFY]?: () => Promise<void>;
  [WEBHOOKS]?: () => Promise<void>;
  [OUTAGES]?: () => void;
  [APPROVAL_MAIL]?: () => Promise<void>;
  [INDEXER]?: () => Promise<void>;
};

async function start(): Promise<void> {
  config(); // a bad setting stops here, naming the variable
  if (await startOtlpTracing()) console.log(`[otel] traces go to ${config().OTEL_EXPORTER_OTLP_ENDPOINT} over OTLP/HTTP`);
  const db = await database();
  let result: MigrationResult;
  // Knowledge bases need pgvector: a PostgreSQL without it stops here with what to install, not mid-migration.
  await ensureVectorExtension(db.prisma, db.kind);
  if (db.pglite) result = await migratePGlite(db.pglite);
  else result = await migratePostgres(db.pool!);
  if (result.applied.length) console.log(`[migrate] applied ${result.applied.join(", ")}`);
  await initKeyring(db.prisma);
  await seedAllTeams(db.prisma);
  const exclusive = db.kind === "pglite";
  const interrupted = await markInterrupted(db.prisma, { exclusive });
  if (interrupted) console.log(`[recovery] ${interrupted} unfinished message(s) marked interrupted`);
  // Shared PostgreSQL: turns of crashed peers are found once their heartbeat goes stale.
  if (!exclusive) holder[SWEEP] = setInterval(() => void markInterrupted(db.prisma, { exclusive }).catch(() => {}), heartbeatMs()).unref();
  // Retention (lib/retention): chats past their team's days, and uploads never sent, now and every 15 minutes.
  const sweep = () => void sweepRetention(db.prisma).catch((err: unknown) => console.error("[retention] sweep failed:", err));
  sweep();
  holder[RETENTION] = setInterval(sweep, RETENTION_SWEEP_MS).unref();
  // Calls waiting past their decision time limit are denied (also those whose deadline passed while down).
  holder[TIMEOUTS] ??= startTimeoutSweep(continueDecided);
  // The team event outbox goes out to the notification channels (webhooks, approval emails) within seconds.
  holder[NOTIFY] ??= startDispatcher();
  // Webhook deliveries are sent beside it, each webhook in order, retried with backoff.
  holder[WEBHOOKS] ??= startWebhookSender();
  // An MCP server whose shared session starts failing is announced once per outage.
  holder[OUTAGES] ??= startMcpOutageEvents();
  // Approval emails gathered into a digest go out when their window ends; failed sends are tried again.
  holder[APPROVAL_MAIL] ??= startApprovalEmailSweep();
  // Knowledge documents are indexed one at a time in the background (unless this instance is told not to).
  if (config().PARLEY_KNOWLEDGE_INDEXER) holder[INDEXER] ??= startIndexer();
  await getAuth();
  if (await needsSetup()) {
    const code = await setupCode(db.prisma);
    console.log(`[setup] Parley has no admin yet: open it in a browser to create one. Set-up code (asked when /setup is opened from another machine): ${code}`);
  }
}

const started = processOnce("parley.startup", start);

export function ready(): Promise<void> {
  return started.get();
}

/** Closes the database and forgets start-up, so the next ready() starts again (tests switch databases). */
export async function shutdown(): Promise<void> {
  started.forget();
  forgetAuth();
  clearInterval(holder[SWEEP]);
  delete holder[SWEEP];
  clearInterval(holder[RETENTION]);
  delete holder[RETENTION];
  holder[TIMEOUTS]?.();
  delete holder[TIMEOUTS];
  const stops = [holder[NOTIFY], holder[WEBHOOKS], holder[INDEXER]];
  delete holder[NOTIFY];
  delete holder[WEBHOOKS];
  delete holder[INDEXER];
  holder[OUTAGES]?.();
  delete holder[OUTAGES];
  await Promise.all(stops.map((stop) => stop?.()));
  const approvalMail = holder[APPROVAL_MAIL];
  delete holder[APPROVAL_MAIL];
  await approvalMail?.();
  await closeDatabase();
}

/**
 * The app's part of an orderly stop, by `deadline` (ms since the epoch), once the server takes no new
 * connections: no new turn starts (503, try again), the running ones end with what was shown stored
 * (stop-turns.ts), the pages' live streams end, the sweeps stop and the database closes (freeing the embedded one's data directory).
 */
export async function stopServer({ deadline }: { deadline: number }): Promise<void> {
  processTurnSlots().close();
  endLiveStreams();
  const registry = await currentStreamRegistry()?.catch(() => undefined);
  if (registry) await endTurns(registry, deadline);
  await shutdown();
  await registry?.close().catch(() => {});
}

/** Where scripts/graceful-stop.mjs looks for the app's stop. */
const STOP_HOOK = Symbol.for("parley.shutdown.hook");

/** For instrumentation.ts, once started: lets graceful-stop.mjs call stopServer; takes answers other instances hand over. */
export async function installStop(): Promise<void> {
  (globalThis as { [STOP_HOOK]?: typeof stopServer })[STOP_HOOK] = stopServer;
  if (config().REDIS_URL) takeHandoffs(await streamRegistry(), processTurnSlots());
}

/** For instrumentation.ts: start, or stop the process with the reason (not a server answering 500s). */
export async function bootOrExit(): Promise<void> {
  try {
    await ready();
    // Under scripts/start.mjs with PARLEY_PROCESSES: the first process to boot lets the others start.
    if (cluster.isWorker) process.send?.({ parley: "ready" });
  } catch (err) {
    console.error(`\nParley cannot start: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
