// The team event outbox: recordTeamEvent writes an event (team-events.ts) in the transaction of the
// change that caused it, so it exists exactly when the change was committed; the dispatcher
// (dispatcher.ts) hands it to every notification channel afterwards. Nothing here sends anything: a
// turn, a decision or an invite never waits for a receiver.
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import type { StoredTeamEvent, TeamEvent } from "./team-events";

type Client = PrismaClient | Prisma.TransactionClient;

/**
 * Records `event` in its team's outbox, through `tx` (the change's transaction, where there is one).
 * With `once`, only while no event holds that key (a budget's month, an MCP server's outage): returns
 * whether it was recorded.
 */
export async function recordTeamEvent(tx: Client, event: TeamEvent, opts: { once?: string } = {}): Promise<boolean> {
  const data = { teamId: event.teamId, kind: event.kind, data: event as unknown as Prisma.InputJsonValue, onceKey: opts.once ?? null };
  if (!opts.once) {
    await tx.teamEvent.create({ data });
    return true;
  }
  // ON CONFLICT DO NOTHING: instances that see the same thing at once record it once.
  return (await tx.teamEvent.createMany({ data: [data], skipDuplicates: true })).count === 1;
}

/** Records `event` on its own (no change it belongs to); a failure is logged, never thrown at the caller. */
export async function recordTeamEventQuietly(event: TeamEvent, opts: { once?: string } = {}): Promise<boolean> {
  try {
    return await recordTeamEvent(await db(), event, opts);
  } catch (err) {
    console.warn(`[notifications] could not record ${event.kind}:`, (err as Error).message);
    return false;
  }
}

/** Frees a `once` key (the outage it stood for is over), so the next such event is recorded again. */
export async function releaseOnceKey(once: string): Promise<void> {
  await (await db()).teamEvent.updateMany({ where: { onceKey: once }, data: { onceKey: null } });
}

/** An outbox row as channels get it. */
export function storedEvent(row: { id: string; data: Prisma.JsonValue; createdAt: Date }): StoredTeamEvent {
  return { ...(row.data as unknown as TeamEvent), id: row.id, at: row.createdAt.toISOString() };
}
