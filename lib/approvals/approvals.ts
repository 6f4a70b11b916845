// Decisions on tool calls waiting for a person. The chat's owner decides the calls waiting for the
// member, never those waiting for an admin (team-approvals.ts decides those); only blocks pending
// approval in the last answer of the chat's branch can be decided, each once (calls of a branch left
// behind were ended as superseded when it was left); the decision is stored on the block
// (who, when, reason) and audited with a hash of the stored input. The call then runs with the input
// stored in the database, never one sent by the client.
import crypto from "node:crypto";
import { z } from "zod";
import { audit } from "../audit";
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError, Conflict, Forbidden, Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import type { CallVerdict } from "./turn-policy";
import { checkEditedInput, editedInputSchema, toolIdOf } from "./edited-input";
import { abortedText, SUPERSEDED } from "../messages/tool-states";
import { recordApprovalDecided, recordApprovalRequested } from "./approval-events";

export const decisionSchema = z.object({
  approvalId: z.string().min(1).max(200),
  approved: z.boolean(),
  reason: z.string().trim().max(1000, "At most 1000 characters.").optional(),
  /** Edit and approve: the input to run instead of the model's (checked against the tool's schema). */
  input: editedInputSchema.optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

type Client = PrismaClient | Prisma.TransactionClient;

export function inputHash(input: unknown): string {
  return crypto
    .createHash("sha256")
    .update(JSON.stringify(input ?? null))
    .digest("hex");
}

/** The newest message of the chat's branch if it is an answer with calls waiting for approval, with those calls. */
export async function pendingOf(prisma: Client, chatId: string) {
  const last = await prisma.message.findFirst({
    where: { chatId, onBranch: true },
    orderBy: { seq: "desc" },
    select: { id: true, role: true, blocks: { where: { kind: "tool", status: "approval-requested" }, orderBy: { ordinal: "asc" } } },
  });
  if (!last || last.role !== "assistant") return { messageId: undefined, pending: [] };
  return { messageId: last.id, pending: last.blocks };
}

export const ALREADY_DECIDED = "This tool call was already decided.";

/** Whether any of these approvals of the chat was decided already (by another tab, an admin, a time limit). */
export async function anyDecidedAlready(chatId: string, decisions: Pick<Decision, "approvalId">[]): Promise<boolean> {
  const prisma = await db();
  const decided = await prisma.block.count({
    where: { approvalId: { in: decisions.map((d) => d.approvalId) }, message: { chatId }, status: { not: "approval-requested" } },
  });
  return decided > 0;
}

/**
 * Records the member's decisions on the pending calls of the chat's last answer. Every call waiting for
 * the member must be decided together; calls waiting for an admin are refused (403) and stay waiting.
 * Unknown or foreign approval ids get 404, already decided ones 409; on any refusal nothing is written.
 * `remaining`: calls of the answer still waiting (for an admin) once these are stored.
 */
export async function recordDecisions(ctx: TeamContext, chatId: string, decisions: Decision[]): Promise<{ messageId: string; remaining: number }> {
  const prisma = await db();
  if (!decisions.length) throw Invalid("No decisions were sent.");
  if (new Set(decisions.map((d) => d.approvalId)).size !== decisions.length) throw Invalid("Each call can be decided once.");
  const { messageId, pending } = await pendingOf(prisma, chatId);
  const byId = new Map(pending.map((b) => [b.approvalId!, b]));
  for (const d of decisions) {
    const block = byId.get(d.approvalId);
    if (block?.approvalBy === "admin") throw Forbidden("An admin of the team decides this call.");
    if (block) continue;
    const elsewhere = await prisma.block.findFirst({ where: { approvalId: d.approvalId, message: { chatId } }, select: { status: true } });
    if (elsewhere) throw Conflict(ALREADY_DECIDED);
    throw NotFound("No tool call is waiting for this approval in this chat.");
  }
  const forMember = pending.filter((b) => b.approvalBy !== "admin");
  if (decisions.length !== forMember.length) {
    throw new AppError("Undecided", 400, "Decide every waiting tool call of this answer before sending.");
  }
  const checked: (Decision & { input?: Record<string, unknown> })[] = [];
  for (const d of decisions) {
    if (d.input !== undefined && !d.approved) throw Invalid("Only an approval can change the input.");
    checked.push(d.input === undefined ? d : { ...d, input: await checkEditedInput(ctx.team.id, toolIdOf(byId.get(d.approvalId)!.extras), d.input) });
  }
  const now = new Date();
  await prisma.$transaction(async (tx) => {
    for (const d of checked) await storeDecision(tx, ctx, chatId, byId.get(d.approvalId)!, d, now);
  });
  return { messageId: messageId!, remaining: pending.length - forMember.length };
}

type PendingBlock = Awaited<ReturnType<typeof pendingOf>>["pending"][number];

/** Where an admin decided: the inbox, or a link in an approval email (audited as `via: "link"`). */
export type DecidedVia = "inbox" | "link";

/** Stores one decision on a waiting block (409 when someone decided it first) and audits it. */
export async function storeDecision(
  tx: Prisma.TransactionClient,
  ctx: TeamContext,
  chatId: string,
  block: PendingBlock,
  d: Decision & { input?: Record<string, unknown> },
  now: Date,
  via?: DecidedVia,
): Promise<void> {
  const edited = d.approved && d.input !== undefined;
  const res = await tx.block.updateMany({
    where: { id: block.id, status: "approval-requested" },
    data: {
      status: "approval-responded",
      approved: d.approved,
      decisionReason: d.reason || null,
      decidedById: ctx.user.id,
      decidedAt: now,
      ...(edited ? { input: d.input as Prisma.InputJsonValue, originalInput: (block.input ?? {}) as Prisma.InputJsonValue } : {}),
    },
  });
  if (res.count !== 1) throw Conflict(ALREADY_DECIDED);
  const base = {
    chatId,
    tool: block.toolName,
    inputHash: inputHash(block.input),
    ...(block.approvalBy ? { by: block.approvalBy } : {}),
    ...(block.approvalRule ? { rule: block.approvalRule } : {}),
    ...(via === "link" ? { via } : {}),
  };
  if (edited) {
    await audit(tx, {
      teamId: ctx.team.id,
      actorId: ctx.user.id,
      action: "tool.edit",
      targetType: "tool-call",
      targetId: block.toolCallId ?? block.id,
      data: { ...base, original: block.input as Prisma.InputJsonValue, edited: d.input as Prisma.InputJsonValue, editedHash: inputHash(d.input) },
    });
  }
  await audit(tx, {
    teamId: ctx.team.id,
    actorId: ctx.user.id,
    action: d.approved ? "tool.approve" : "tool.deny",
    targetType: "tool-call",
    targetId: block.toolCallId ?? block.id,
    data: { ...base, ...(edited ? { edited: true } : {}), ...(d.reason ? { reason: d.reason } : {}) },
  });
  await recordApprovalDecided(
    tx,
    block,
    { teamId: ctx.team.id, chatId },
    { outcome: d.approved ? "approved" : "denied", via: via ?? "inbox", by: personOf(ctx), reason: d.reason || null },
  );
}

/** The caller as notifications name them. */
function personOf(ctx: TeamContext) {
  return { id: ctx.user.id, name: ctx.user.name, email: ctx.user.email };
}

/** Whose turn ran a call without asking, for its audit event. */
export type AutoActor = { teamId: string; userId: string; chatId: string };

/**
 * Stores what each waiting call of an answer waits for (turn-policy.ts's verdicts): who decides, the
 * rule that asked, and the deadline of its time limit; and, for a call a rule ran without asking, that
 * rule (approvalBy "auto", shown on the card) with a `tool.auto` audit event naming it, once per call.
 * Runs once the answer's blocks are stored.
 */
export async function markApprovalRequests(
  prisma: PrismaClient,
  messageId: string,
  verdicts: ReadonlyMap<string, CallVerdict>,
  now = new Date(),
  actor?: AutoActor,
): Promise<void> {
  for (const [toolCallId, v] of verdicts) {
    if (v.by === "auto") {
      await prisma.$transaction(async (tx) => {
        const block = await tx.block.findFirst({ where: { messageId, toolCallId, kind: "tool", approvalBy: null } });
        if (!block) return;
        const res = await tx.block.updateMany({ where: { id: block.id, approvalBy: null }, data: { approvalBy: "auto", approvalRule: v.rule ?? null } });
        if (res.count !== 1 || !actor) return;
        await audit(tx, {
          teamId: actor.teamId,
          actorId: actor.userId,
          action: "tool.auto",
          targetType: "tool-call",
          targetId: toolCallId,
          data: { chatId: actor.chatId, tool: block.toolName, inputHash: inputHash(block.input), by: "auto", ...(v.rule ? { rule: v.rule } : {}) },
        });
      });
      continue;
    }
    const data = { approvalBy: v.by, approvalRule: v.rule ?? null, approvalDeadline: v.timeoutMin ? new Date(now.getTime() + v.timeoutMin * 60_000) : null };
    const where = { messageId, toolCallId, status: "approval-requested", approvalBy: null };
    if (v.by !== "admin") {
      await prisma.block.updateMany({ where, data });
      continue;
    }
    // A call waiting for an admin: its approvers hear of it (approval.requested, in the same transaction).
    await prisma.$transaction(async (tx) => {
      const block = await tx.block.findFirst({ where, select: { id: true } });
      if (!block) return;
      const res = await tx.block.updateMany({ where: { id: block.id, approvalBy: null }, data });
      if (res.count === 1) await recordApprovalRequested(tx, block.id);
    });
  }
}

/** The answer at the end of the chat's branch, once every call it waited for is decided; 409 otherwise. */
export async function decidedAnswer(prisma: Client, chatId: string): Promise<string> {
  const last = await prisma.message.findFirst({
    where: { chatId, onBranch: true },
    orderBy: { seq: "desc" },
    select: {
      id: true,
      role: true,
      blocks: { where: { kind: "tool", status: { in: ["approval-requested", "approval-responded"] } }, select: { status: true } },
    },
  });
  if (!last || last.role !== "assistant" || !last.blocks.length || last.blocks.some((b) => b.status === "approval-requested")) {
    throw Conflict("This answer has no decided calls to continue with.");
  }
  return last.id;
}

/**
 * A new message, a new version or another branch while calls of the branch's last answer are open for
 * a person's sake: a call still waiting is
 * denied with the reason "superseded by a new message"; a call already decided whose answer never went
 * on (its turn failed before the call ran) ends too — approved ones `aborted` ("Not run: a new message
 * was sent."), denied ones `output-denied` with their reason. Runs inside the transaction that stores the
 * new message (turn-claim.ts's claimTurn).
 */
export async function supersedePending(tx: Prisma.TransactionClient, ctx: TeamContext, chatId: string): Promise<number> {
  const last = await tx.message.findFirst({
    where: { chatId, onBranch: true },
    orderBy: { seq: "desc" },
    select: {
      id: true,
      role: true,
      blocks: { where: { kind: "tool", status: { in: ["approval-requested", "approval-responded"] } }, orderBy: { ordinal: "asc" } },
    },
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
    await recordApprovalDecided(
      tx,
      block,
      { teamId: ctx.team.id, chatId },
      { outcome: "superseded", via: "superseded", by: personOf(ctx), reason: SUPERSEDED },
    );
  }
  // An answer left streaming by a continuation that failed before it streamed is over now.
  if (last.blocks.some((b) => b.status === "approval-responded")) {
    await tx.message.updateMany({ where: { id: last.id, status: "streaming" }, data: { status: "error", finishReason: "error" } });
  }
  return last.blocks.length;
}
