// The outbox's dispatcher: every second each instance looks for teams with events not yet delivered,
// takes the team's lease (TeamEventLease: one instance per team at a time, so an event goes out once and
// a team's events go out in order), and hands the events, oldest first, to every notification channel
// (channels.ts). When every channel took them they are marked delivered; when one throws they are tried
// again later (1 s, 2 s, 4 s, … up to 5 minutes; given up after MAX_ATTEMPTS). A lease whose instance died
// runs out and is taken over. Started with the server (lib/startup.ts); its stop waits for the round in
// progress. Delivered events are kept for EVENT_DAYS (webhook deliveries list them), then deleted.
import crypto from "node:crypto";
import os from "node:os";
import { db } from "../db/client";
import { withTimeout } from "../with-timeout";
import { notificationChannels } from "./channels";
import { storedEvent } from "./events";
import type { NotificationChannel } from "./team-events";

export const DISPATCH_INTERVAL_MS = 1_000;
/** How long an instance holds a team's lease; a channel gets at most half of it per round. */
const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 12;
const MAX_BACKOFF_MS = 5 * 60_000;
const BATCH = 50;
const EVENT_DAYS = 30;
const PRUNE_EVERY_MS = 60 * 60_000;

export type DispatcherOptions = {
  channels?: NotificationChannel[];
  /** The first retry's delay (doubled after each failure). */
  retryBaseMs?: number;
  /** This instance's name in leases (unique per process by default). */
  holder?: string;
};

const processHolder = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString("hex")}`;

/** The delay before try number `attempts + 1`. */
export function backoffMs(attempts: number, baseMs = 1_000): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** A time for raw SQL on a timestamp column (UTC, as Prisma stores them; the string's zone is ignored). */
const utc = (d: Date) => d.toISOString();

async function takeLease(teamId: string, holder: string, now: Date): Promise<boolean> {
  const prisma = await db();
  const until = new Date(now.getTime() + LEASE_MS);
  // One row per team: exactly one instance wins it while it is held (PostgreSQL re-checks the WHERE
  // on the row a concurrent insert or update committed).
  const taken = await prisma.$executeRaw`
    INSERT INTO "TeamEventLease" ("teamId", "holder", "until") VALUES (${teamId}, ${holder}, ${utc(until)}::timestamp)
    ON CONFLICT ("teamId") DO UPDATE SET "holder" = EXCLUDED."holder", "until" = EXCLUDED."until"
    WHERE "TeamEventLease"."until" < ${utc(now)}::timestamp OR "TeamEventLease"."holder" = EXCLUDED."holder"`;
  return taken === 1;
}

async function releaseLease(teamId: string, holder: string): Promise<void> {
  const prisma = await db();
  await prisma.teamEventLease.updateMany({ where: { teamId, holder }, data: { until: new Date(0) } });
}

/** Delivers one team's due events to every channel, if this instance gets the team's lease. */
async function dispatchTeam(teamId: string, channels: NotificationChannel[], holder: string, retryBaseMs: number): Promise<number> {
  const prisma = await db();
  const now = new Date();
  if (!(await takeLease(teamId, holder, now))) return 0;
  try {
    const rows = await prisma.teamEvent.findMany({ where: { teamId, deliveredAt: null }, orderBy: { seq: "asc" }, take: BATCH });
    // The oldest waits for its retry: the later ones wait behind it (order).
    if (!rows.length || rows[0].nextAttemptAt > now) return 0;
    const events = rows.map(storedEvent);
    const failures: string[] = [];
    for (const channel of channels) {
      try {
        await withTimeout(channel.deliver(events), LEASE_MS / 2);
      } catch (err) {
        failures.push(`${channel.name}: ${(err as Error).message}`);
      }
    }
    const ids = rows.map((r) => r.id);
    if (!failures.length) {
      await prisma.teamEvent.updateMany({ where: { id: { in: ids } }, data: { deliveredAt: new Date(), lastError: null } });
      return rows.length;
    }
    const attempts = rows[0].attempts + 1;
    const lastError = failures.join("; ").slice(0, 1000);
    const givenUp = attempts >= MAX_ATTEMPTS;
    console.warn(`[notifications] delivering ${rows.length} event(s) of team ${teamId} failed (try ${attempts}${givenUp ? ", given up" : ""}): ${lastError}`);
    await prisma.teamEvent.updateMany({
      where: { id: { in: ids } },
      data: { attempts, lastError, nextAttemptAt: new Date(Date.now() + backoffMs(attempts, retryBaseMs)), ...(givenUp ? { deliveredAt: new Date() } : {}) },
    });
    return 0;
  } finally {
    await releaseLease(teamId, holder).catch(() => {});
  }
}

/** One round: every team with due events, side by side. Returns how many events were delivered. */
export async function dispatchOnce(opts: DispatcherOptions = {}): Promise<number> {
  const prisma = await db();
  const channels = opts.channels ?? notificationChannels;
  const holder = opts.holder ?? processHolder;
  // DISTINCT in the database (Prisma's `distinct` reads every row and de-duplicates them itself).
  const teams = await prisma.$queryRaw<{ teamId: string }[]>`
    SELECT DISTINCT "teamId" FROM "TeamEvent" WHERE "deliveredAt" IS NULL AND "nextAttemptAt" <= ${utc(new Date())}::timestamp LIMIT 20`;
  const done = await Promise.all(teams.map((t) => dispatchTeam(t.teamId, channels, holder, opts.retryBaseMs ?? 1_000)));
  return done.reduce((a, b) => a + b, 0);
}

/** Deletes delivered events older than EVENT_DAYS (with their webhook deliveries). */
export async function pruneEvents(now = new Date()): Promise<number> {
  const prisma = await db();
  const before = new Date(now.getTime() - EVENT_DAYS * 86_400_000);
  const res = await prisma.teamEvent.deleteMany({ where: { deliveredAt: { lt: before } } });
  return res.count;
}

/** Runs a round every DISPATCH_INTERVAL_MS (never two at once); the returned stop waits for the round in progress. */
export function startDispatcher(opts: DispatcherOptions & { intervalMs?: number } = {}): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<unknown> = Promise.resolve();
  let lastPrune = 0;
  const tick = () => {
    round = (async () => {
      try {
        await dispatchOnce(opts);
        if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
          lastPrune = Date.now();
          await pruneEvents();
        }
      } catch (err) {
        console.warn("[notifications] dispatch round failed:", (err as Error).message);
      }
    })().finally(() => {
      if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? DISPATCH_INTERVAL_MS).unref();
    });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await round;
  };
}
