// Decisions on tool calls waiting for a person. Only the chat's owner decides; only blocks pending
// approval in the last answer of the chat's branch can be decided, each once (calls of a branch left
// behind were ended as superseded when it was left); the decision is stored on the block
// (who, when, reason) and audited with a hash of the stored input. The call then runs with the input
// stored in the database, never one sent by the client.
import crypto from "node:crypto";
import { z } from "zod";
import { audit } from "../audit";
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError, Conflict, Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/context";
import { abortedText, SUPERSEDED } from "./tool-states";

export const decisionSchema = z.object({
  approvalId: z.string().min(1).max(200),
  approved: z.boolean(),
  reason: z.string().trim().max(1000, "At most 1000 characters.").optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

type Client = PrismaClient | Prisma.TransactionClient;

function inputHash(input: unknown): string {
  return crypto.createHash("sha256").update(JSON.stringify(input ?? null)).digest("hex");
}

/** The newest message of the chat's branch if it is an answer with calls waiting for approval, with those calls. */
async function pendingOf(prisma: Client, chatId: string) {
  const last = await prisma.message.findFirst({
    where: { chatId, onBranch: true },
    orderBy: { seq: "desc" },
    select: { id: true, role: true, blocks: { where: { kind: "tool", status: "approval-requested" }, orderBy: { ordinal: "asc" } } },
  });
  if (!last || last.role !== "assistant") return { messageId: undefined, pending: [] };
  return { messageId: last.id, pending: last.blocks };
}

/**
 * Records the decisions on the pending calls of the chat's last answer. All pending calls must be
 * decided together. Unknown or foreign approval ids get 404, already decided ones 409; on any refusal
 * nothing is written.
 */
export async function recordDecisions(ctx: TeamContext, chatId: string, decisions: Decision[]): Promise<{ messageId: string }> {
  const prisma = await db();
  if (!decisions.length) throw Invalid("No decisions were sent.");
  if (new Set(decisions.map((d) => d.approvalId)).size !== decisions.length) throw Invalid("Each call can be decided once.");
  const { messageId, pending } = await pendingOf(prisma, chatId);
  const byId = new Map(pending.map((b) => [b.approvalId!, b]));
  for (const d of decisions) {
    if (byId.has(d.approvalId)) continue;
    const elsewhere = await prisma.block.findFirst({ where: { approvalId: d.approvalId, message: { chatId } }, select: { status: true } });
    if (elsewhere) throw Conflict("This tool call was already decided.");
    throw NotFound("No tool call is waiting for this approval in this chat.");
  }
  if (decisions.length !== pending.length) {
    throw new AppError("Undecided", 400, "Decide every waiting tool call of this answer before sending.");
  }
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    for (const d of decisions) {
      const block = byId.get(d.approvalId)!;
      const res = await tx.block.updateMany({
        where: { id: block.id, status: "approval-requested" },
        data: { status: "approval-responded", approved: d.approved, decisionReason: d.reason || null, decidedById: ctx.user.id, decidedAt: now },
      });
      if (res.count !== 1) throw Conflict("This tool call was already decided.");
      await audit(tx, {
        teamId: ctx.team.id,
        actorId: ctx.user.id,
        action: d.approved ? "tool.approve" : "tool.deny",
        targetType: "tool-call",
        targetId: block.toolCallId ?? block.id,
        data: { chatId, tool: block.toolName, inputHash: inputHash(block.input), ...(d.reason ? { reason: d.reason } : {}) },
      });
    }
  });
  return { messageId: messageId! };
}

/**
 * A new message, a new version or another branch while calls of the branch's last answer are open for
 * a person's sake: a call still waiting is
 * denied with the reason "superseded by a new message"; a call already decided whose answer never went
 * on (its turn failed before the call ran) ends too — approved ones `aborted` ("Not run: a new message
 * was sent."), denied ones `output-denied` with their reason. Runs inside the transaction that stores the
 * new message (turn-load.ts's claimTurn).
 */
export async function supersedePending(tx: Prisma.TransactionClient, ctx: TeamContext, chatId: string): Promise<number> {
  const last = await tx.message.findFirst({
    where: { chatId, onBranch: true },
    orderBy: { seq: "desc" },
    select: { id: true, role: true, blocks: { where: { kind: "tool", status: { in: ["approval-requested", "approval-responded"] } }, orderBy: { ordinal: "asc" } } },
  });
  if (!last || last.role !== "assistant") return 0;
  const now = new Date();
  for (const block of last.blocks) {
    if (block.status === "approval-responded") {
      await tx.block.updateMany({
        where: { id: block.id, status: "approval-responded" },
        data: block.approved
          ? { status: "aborted", errorCode: "Aborted", errorText: abortedText("superseded", false), finishedAt: now }
          : { status: "output-denied", finishedAt: now },
      });
      continue;
    }
    await tx.block.updateMany({
      where: { id: block.id, status: "approval-requested" },
      data: { status: "output-denied", approved: false, decisionReason: SUPERSEDED, decidedById: ctx.user.id, decidedAt: now, finishedAt: now },
    });
    await audit(tx, {
      teamId: ctx.team.id,
      actorId: ctx.user.id,
      action: "tool.deny",
      targetType: "tool-call",
      targetId: block.toolCallId ?? block.id,
      data: { chatId, tool: block.toolName, inputHash: inputHash(block.input), reason: SUPERSEDED },
    });
  }
  // An answer left streaming by a continuation that failed before it streamed is over now.
  if (last.blocks.some((b) => b.status === "approval-responded")) {
    await tx.message.updateMany({ where: { id: last.id, status: "streaming" }, data: { status: "error", finishReason: "error" } });
  }
  return last.blocks.length;
}
