// Audit events: who did what, to what, when. An audited change and its event are stored in one
// transaction (`audited`), so the log never misses a change that happened nor records one that did
// not. Callers pass details without secrets.
import { db } from "./db/client";
import type { Prisma, PrismaClient } from "./db/generated/client";

/** Who acts, and in which team: a request's TeamContext fits; without a team yet, give the event's teamId. */
export type Actor = { user: { id: string }; team?: { id: string } };

/** What happened. `teamId` only when it differs from the actor's team (a team created by this change). */
export type AuditEvent = {
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Prisma.InputJsonValue;
  teamId?: string;
};

type Tx = Prisma.TransactionClient;

/** Records one event inside the caller's transaction (for a transaction that records several). */
async function recordAudit(tx: Pick<Tx, "auditEvent">, actor: Actor, event: AuditEvent): Promise<void> {
  const { teamId, ...rest } = event;
  await tx.auditEvent.create({ data: { ...rest, teamId: teamId ?? actor.team?.id ?? null, actorId: actor.user.id } });
}

/**
 * Makes a change and records its event in one transaction: `write` changes rows through `tx` and
 * returns what the caller needs; `event` says what happened, from that result when it needs it
 * (null: nothing changed, nothing to record). A throw in either stores neither.
 */
export async function audited<T>(
  actor: Actor,
  write: (tx: Tx) => Promise<T>,
  event: AuditEvent | ((result: T) => AuditEvent | null),
  /** For a long write (e.g. copying a chat): how long it may wait for a connection and run. */
  options?: { maxWait?: number; timeout?: number },
): Promise<T> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const result = await write(tx);
    const happened = typeof event === "function" ? event(result) : event;
    if (happened) await recordAudit(tx, actor, happened);
    return result;
  }, options);
}

/** The older form, with the actor's ids in the event: lib/approvals/approvals.ts still writes through it. */
export type AuditInput = {
  teamId?: string | null;
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Prisma.InputJsonValue;
};

export async function audit(prisma: Pick<PrismaClient, "auditEvent">, event: AuditInput): Promise<void> {
  await prisma.auditEvent.create({ data: { ...event } });
}
