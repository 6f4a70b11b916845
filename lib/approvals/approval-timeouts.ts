// Time limits on decisions: a call still waiting when its deadline (set from its policy's limit when
// it asked, approvals.ts markApprovalRequests) passes is denied with the reason "no decision within N
// minutes", audited, and its answer goes on so the model learns it — whether or not anyone has the
// chat open. The deadline is in the database: every instance sweeps (each block is taken by one, a
// conditional update), and a restart loses nothing (the sweep runs at start-up too).
import { audit } from "../audit";
import { db } from "../db/client";
import { inputHash } from "./approvals";
import { recordApprovalDecided } from "./approval-events";
import type { ContinueAnswer } from "./team-approvals";

/** How often each instance looks for calls past their deadline. */
export const TIMEOUT_SWEEP_MS = 15_000;

/** The reason a call is denied with when nobody decided in time. */
export function timeoutReason(minutes: number): string {
  return `no decision within ${minutes} minute${minutes === 1 ? "" : "s"}`;
}

/**
 * Denies the calls past their deadline at `now`; starts the answers that have nothing left waiting.
 * Returns the chats whose answers went on (their continuations: `continued`).
 */
export async function expireApprovals(now: Date, continueAnswer: ContinueAnswer) {
  const prisma = await db();
  const due = await prisma.block.findMany({
    where: { kind: "tool", status: "approval-requested", approvalDeadline: { lte: now } },
    take: 100,
    include: { message: { select: { id: true, chatId: true, chat: { select: { teamId: true } } } } },
  });
  const messages = new Map<string, string>();
  for (const b of due) {
    const minutes = Math.max(1, Math.round((b.approvalDeadline!.getTime() - b.createdAt.getTime()) / 60_000));
    const reason = timeoutReason(minutes);
    const taken = await prisma.$transaction(async (tx) => {
      const res = await tx.block.updateMany({
        where: { id: b.id, status: "approval-requested" },
        data: { status: "approval-responded", approved: false, decisionReason: reason, decidedById: null, decidedAt: now },
      });
      if (res.count !== 1) return false;
      await audit(tx, {
        teamId: b.message.chat.teamId,
        actorId: null,
        action: "tool.deny",
        targetType: "tool-call",
        targetId: b.toolCallId ?? b.id,
        data: {
          chatId: b.message.chatId,
          tool: b.toolName,
          inputHash: inputHash(b.input),
          reason,
          timedOut: true,
          ...(b.approvalBy ? { by: b.approvalBy } : {}),
          ...(b.approvalRule ? { rule: b.approvalRule } : {}),
        },
      });
      await recordApprovalDecided(tx, b, { teamId: b.message.chat.teamId, chatId: b.message.chatId }, { outcome: "expired", via: "timeout", by: null, reason });
      return true;
    });
    if (taken) messages.set(b.message.id, b.message.chatId);
  }
  const continued: Promise<boolean>[] = [];
  for (const [messageId, chatId] of messages) {
    const left = await prisma.block.count({ where: { messageId, kind: "tool", status: "approval-requested" } });
    if (!left) continued.push(continueAnswer(chatId));
  }
  return { denied: messages.size, continued };
}

/** Sweeps now and every TIMEOUT_SWEEP_MS, going on with answers through `continueAnswer`; returns a stop function. */
export function startTimeoutSweep(continueAnswer: ContinueAnswer): () => void {
  const sweep = () =>
    void expireApprovals(new Date(), continueAnswer).catch((err) => console.warn("[approvals] could not check decision time limits:", (err as Error).message));
  sweep();
  const timer = setInterval(sweep, TIMEOUT_SWEEP_MS).unref();
  return () => clearInterval(timer);
}
