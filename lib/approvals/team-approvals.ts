// Calls waiting for an admin of the team ("an admin approves", or a rule that escalates): the inbox
// every admin of the team sees, its count (the sidebar badge), and the admins' decisions — Approve,
// Deny with a reason, or Edit and approve. The database is the source of truth, so the inbox and
// the badge are the same on every instance; two admins deciding at once: the first wins, the other
// gets 409. Once no call of the answer waits any more, the answer goes on in the member's chat
// (continue-decided.ts).
import { z } from "zod";
import { db } from "../db/client";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { checkEditedInput, toolIdOf } from "./edited-input";
import { ALREADY_DECIDED, decisionSchema, pendingOf, storeDecision, type DecidedVia } from "./approvals";

export const adminDecisionSchema = decisionSchema.strict();
export type AdminDecision = z.infer<typeof adminDecisionSchema>;

const WAITING_FOR_ADMIN = { kind: "tool", status: "approval-requested", approvalBy: "admin" } as const;

/** How many calls wait for an admin: in one team, or in all teams (for the pending-approvals metric). */
export async function countPendingApprovals(teamId?: string): Promise<number> {
  const prisma = await db();
  return prisma.block.count({ where: { ...WAITING_FOR_ADMIN, message: { onBranch: true, ...(teamId ? { chat: { teamId } } : {}) } } });
}

/**
 * The calls waiting for an admin of the team, as a mark that changes whenever the set does: how many,
 * and when the newest of them changed (a call decided and another requested in one moment still moves it).
 */
export async function pendingApprovalsMark(teamId: string): Promise<{ count: number; latest: string | null }> {
  const prisma = await db();
  const { _count, _max } = await prisma.block.aggregate({
    where: { ...WAITING_FOR_ADMIN, message: { onBranch: true, chat: { teamId } } },
    _count: { _all: true },
    _max: { updatedAt: true },
  });
  return { count: _count._all, latest: _max.updatedAt?.toISOString() ?? null };
}

export type InboxItem = {
  approvalId: string;
  chatId: string;
  chatTitle: string;
  member: string;
  question: string;
  tool: { label: string; serverName?: string; toolName: string; toolId?: string; inputSchema: unknown };
  input: unknown;
  rule: string | null;
  deadline: string | null;
  requestedAt: string;
};

/** The calls waiting for an admin of the caller's team, oldest first, with the chat around each. */
export async function adminInbox(ctx: TeamContext): Promise<InboxItem[]> {
  if (ctx.team.role !== "admin") throw Forbidden();
  return waitingItems(ctx.team.id);
}

/** One call waiting for an admin of the team, as the inbox shows it (an approval email's link opens it); null when it waits no more. */
export async function waitingItem(teamId: string, approvalId: string): Promise<InboxItem | null> {
  return (await waitingItems(teamId, approvalId))[0] ?? null;
}

async function waitingItems(teamId: string, approvalId?: string): Promise<InboxItem[]> {
  const prisma = await db();
  const blocks = await prisma.block.findMany({
    where: { ...WAITING_FOR_ADMIN, ...(approvalId ? { approvalId } : {}), message: { onBranch: true, chat: { teamId } } },
    orderBy: { createdAt: "asc" },
    take: 200,
    include: { message: { select: { parentId: true, chat: { select: { id: true, title: true, user: { select: { name: true } } } } } } },
  });
  const questionIds = [...new Set(blocks.map((b) => b.message.parentId).filter((id): id is string => !!id))];
  const questions = await prisma.block.findMany({
    where: { messageId: { in: questionIds }, kind: "text" },
    orderBy: { ordinal: "asc" },
    select: { messageId: true, text: true },
  });
  const textOf = new Map<string, string>();
  for (const q of questions) textOf.set(q.messageId, (textOf.get(q.messageId) ?? "") + (q.text ?? ""));
  const toolIds = [...new Set(blocks.map((b) => toolIdOf(b.extras)).filter((id): id is string => !!id))];
  const tools = new Map(
    (await prisma.mcpTool.findMany({ where: { id: { in: toolIds }, server: { teamId: teamId } }, select: { id: true, inputSchema: true } })).map((t) => [
      t.id,
      t,
    ]),
  );
  return blocks.map((b) => {
    const meta = (b.extras as { toolMetadata?: { serverName?: string; toolName?: string; toolId?: string } } | null)?.toolMetadata;
    const chat = b.message.chat;
    return {
      approvalId: b.approvalId!,
      chatId: chat.id,
      chatTitle: chat.title ?? "Untitled chat",
      member: chat.user.name,
      question: (b.message.parentId && textOf.get(b.message.parentId)) || "",
      tool: {
        label: meta?.serverName ? `${meta.serverName} · ${meta.toolName}` : (b.toolName ?? "tool"),
        serverName: meta?.serverName,
        toolName: meta?.toolName ?? b.toolName ?? "tool",
        toolId: meta?.toolId,
        inputSchema: (meta?.toolId && tools.get(meta.toolId)?.inputSchema) ?? null,
      },
      input: b.input,
      rule: b.approvalRule,
      deadline: b.approvalDeadline?.toISOString() ?? null,
      requestedAt: b.createdAt.toISOString(),
    };
  });
}

/** Starts an answer whose waiting calls are all decided; false when it cannot go on now. */
export type ContinueAnswer = (chatId: string) => Promise<boolean>;

export type DecideOptions = {
  /** Starts the answer's continuation (lib/turn's continueDecided; tests may pass their own). */
  continueAnswer: ContinueAnswer;
  /** Where the admin decided (default the inbox); a link in an approval email is audited as such. */
  via?: DecidedVia;
};

/**
 * An admin decides a call waiting for an admin of their team: 404 for any other id (another team's,
 * made up), 403 for a call the member decides, 409 when it was decided already (another admin was
 * first, the member moved on). An edited input must fit the tool's schema (400, nothing stored).
 * Returns whether the answer goes on now (no call of it waits any more).
 */
export async function decideAsAdmin(ctx: TeamContext, d: AdminDecision, opts: DecideOptions): Promise<{ continues: boolean; done?: Promise<boolean> }> {
  if (ctx.team.role !== "admin") throw Forbidden();
  const prisma = await db();
  const block = await prisma.block.findFirst({
    where: { approvalId: d.approvalId, kind: "tool", message: { chat: { teamId: ctx.team.id } } },
    include: { message: { select: { chatId: true } } },
  });
  if (!block) throw NotFound("No tool call is waiting for this approval in your team.");
  if (block.status !== "approval-requested") throw Conflict(ALREADY_DECIDED);
  if (block.approvalBy !== "admin") throw Forbidden("The member decides this call in their chat.");
  const chatId = block.message.chatId;
  const { messageId, pending } = await pendingOf(prisma, chatId);
  if (messageId !== block.messageId || !pending.some((b) => b.id === block.id)) throw Conflict(ALREADY_DECIDED);
  if (d.input !== undefined && !d.approved) throw Invalid("Only an approval can change the input.");
  const input = d.input !== undefined ? await checkEditedInput(ctx.team.id, toolIdOf(block.extras), d.input) : undefined;
  await prisma.$transaction((tx) => storeDecision(tx, ctx, chatId, block, { ...d, input }, new Date(), opts.via));
  // Counted after the decision is committed, so that of two admins deciding the last two calls at once
  // at least the later one sees none left (both may: the second continuation then finds the chat taken).
  const left = await prisma.block.count({ where: { messageId: block.messageId, kind: "tool", status: "approval-requested" } });
  if (left) return { continues: false };
  const done = opts.continueAnswer(chatId);
  return { continues: true, done };
}
