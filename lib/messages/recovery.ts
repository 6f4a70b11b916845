// Turns that ended without being finalised. Messages left `streaming` by a process that died become
// `interrupted`, keeping what was stored; their open tool calls become `aborted` ("Interrupted") and
// their streaming text final, so no card spins after a reload. Live turns touch their message every
// HEARTBEAT_MS, so on PostgreSQL (shared by several app processes) only messages silent for longer
// than STALE_MS are taken; with PGlite the data directory lock guarantees no other process, so every
// streaming message is dead. A turn whose writes the database refused (store-turn.ts) is marked by
// its own process as soon as the database takes a write again (markNotSaved), without waiting.
import { config } from "../config";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { retryDelay, type RetryPolicy } from "./block-writer";
import { abortedText, FINAL_STATES, type AbortReason } from "./tool-states";

/** The default of PARLEY_HEARTBEAT_MS, and the silence after which a message is taken as dead with it. */
export const HEARTBEAT_MS = 30_000;
export const STALE_MS = 4 * HEARTBEAT_MS;
/** How often live turns touch their message (PARLEY_HEARTBEAT_MS); silent for 4 of these, a message is dead. */
export const heartbeatMs = () => config().PARLEY_HEARTBEAT_MS;
const staleMs = () => 4 * heartbeatMs();

/** The finish reason of a message whose answer could not all be stored. */
export const NOT_SAVED_REASON = "not-saved";

const OPEN_TOOL: Prisma.BlockWhereInput = {
  kind: "tool",
  OR: [{ status: { notIn: [...FINAL_STATES] } }, { status: "output-available", extras: { path: ["preliminary"], equals: true } }],
};

/**
 * Closes what the messages left open: tool calls aborted (as interrupted unless told why; `neverRan` when
 * no call can have started), streaming text final.
 */
export async function closeBlocks(
  prisma: PrismaClient | Prisma.TransactionClient,
  messageIds: string[],
  reason: AbortReason = "interrupted",
  neverRan = false,
) {
  const now = new Date();
  const open = await prisma.block.findMany({ where: { messageId: { in: messageIds }, ...OPEN_TOOL }, select: { id: true, status: true, approved: true } });
  for (const b of open) {
    const started =
      !neverRan && (b.status === "input-available" || b.status === "output-available" || (b.status === "approval-responded" && b.approved === true));
    await prisma.block.update({
      where: { id: b.id },
      data: { status: "aborted", errorCode: "Aborted", errorText: abortedText(reason, started), finishedAt: now },
    });
  }
  await prisma.block.updateMany({
    where: { messageId: { in: messageIds }, kind: { in: ["text", "reasoning"] }, status: "streaming" },
    data: { status: "done" },
  });
  // Questions of servers (elicitations.ts) that were waiting: their calls are gone.
  await prisma.elicitation.updateMany({ where: { messageId: { in: messageIds }, status: "pending" }, data: { status: "expired" } });
}

export async function markInterrupted(prisma: PrismaClient, opts: { exclusive: boolean; now?: Date }): Promise<number> {
  const now = opts.now ?? new Date();
  const where = opts.exclusive ? { status: "streaming" as const } : { status: "streaming" as const, updatedAt: { lt: new Date(now.getTime() - staleMs()) } };
  const stale = await prisma.message.findMany({ where, select: { id: true, chatId: true } });
  if (!stale.length) return 0;
  const ids = stale.map((m) => m.id);
  await closeBlocks(prisma, ids);
  await prisma.message.updateMany({ where: { id: { in: ids }, status: "streaming" }, data: { status: "interrupted", finishReason: "interrupted" } });
  await prisma.chat.updateMany({ where: { id: { in: [...new Set(stale.map((m) => m.chatId))] } }, data: { activeStreamId: null } });
  return stale.length;
}

/** Runs `fn`, retrying failures with the policy's backoff; rejects with the last failure. */
export async function withRetry<T>(policy: RetryPolicy, fn: () => Promise<T>): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await fn();
    } catch (err) {
      if (failures >= policy.attempts) throw err;
      await new Promise((r) => setTimeout(r, retryDelay(policy, failures)));
    }
  }
}

/** How long a process keeps trying to mark an unsaved answer before the stale sweep takes it. */
const notSavedPatienceMs = () => staleMs();

/**
 * Marks an answer the database did not take whole: `interrupted` ("not-saved"), its open blocks closed,
 * the chat free — retried in the background until the database takes it (or the stale sweep does).
 */
export function markNotSaved(db: () => Promise<PrismaClient>, messageId: string, chatId: string, streamId: string, policy: RetryPolicy): Promise<boolean> {
  const attempts = Math.max(policy.attempts, Math.ceil(notSavedPatienceMs() / policy.maxMs));
  return withRetry({ ...policy, attempts }, async () => {
    const prisma = await db();
    await prisma.$transaction(async (tx) => {
      await closeBlocks(tx, [messageId]);
      await tx.message.updateMany({ where: { id: messageId }, data: { status: "interrupted", finishReason: NOT_SAVED_REASON } });
      await tx.chat.updateMany({ where: { id: chatId, activeStreamId: streamId }, data: { activeStreamId: null } });
    });
  }).then(
    () => true,
    (err) => {
      console.error(`[recovery] message ${messageId} could not be marked as not saved:`, err);
      return false;
    },
  );
}
