// The team event outbox: recordTeamEvent writes an event (team-events.ts) in the transaction of the
// change that caused it, so it exists exactly when the change was committed; the dispatcher
// (dispatcher.ts) hands it to every notification channel afterwards. Nothing here sends anything: a
// turn, a decision or an invite never waits for a receiver.
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import type { StoredTeamEvent, TeamEvent } from "./team-events";

type Client = PrismaClient | Prisma.TransactionClient;

/** Records `event` in its team's outbox, through `tx` (the change's transaction, where there is one). */
export async function recordTeamEvent(tx: Client, event: TeamEvent): Promise<void> {
  await tx.teamEvent.create({ data: { teamId: event.teamId, kind: event.kind, data: event as unknown as Prisma.InputJsonValue } });
}

/** Records `event` on its own (no change it belongs to); a failure is logged, never thrown at the caller. */
export async function recordTeamEventQuietly(event: TeamEvent): Promise<void> {
  try {
    await recordTeamEvent(await db(), event);
  } catch (err) {
    console.warn(`[notifications] could not record ${event.kind}:`, (err as Error).message);
  }
}

/** An outbox row as channels get it. */
export function storedEvent(row: { id: string; data: Prisma.JsonValue; createdAt: Date }): StoredTeamEvent {
  return { ...(row.data as unknown as TeamEvent), id: row.id, at: row.createdAt.toISOString() };
}
