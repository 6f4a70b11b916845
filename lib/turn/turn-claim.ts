// A turn's first writes. `claimTurn` writes the turn's first rows in one transaction: the chat claimed
// for this turn (a draft stored), the question (after the branch's newest message, or beside the
// question it edits), the title, the empty answer, the branch moved to the new version, and calls
// still waiting (or decided but never run) ended as superseded. For a new message the turn runs it
// while the model request is already on its way, and the model reads the history as it was before the
// turn, plus the question (`withQuestion`). Decisions on waiting calls, and a stopped answer to
// continue, are written first (they change what the model reads), so their history is read after the
// claim. `releaseChat` gives the chat back when the turn fails before it streams.
import { db } from "../db/client";
import type { Block } from "../db/generated/client";
import { Conflict } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { claimAttachments } from "../attachments/store";
import { stepsTaken } from "./answer-steps";
import { ALREADY_DECIDED, anyDecidedAlready, decidedAnswer, recordDecisions, supersedePending, type Decision } from "../approvals/approvals";
import { branchTip, leaveBranchFrom } from "../chat/branches";
import { loadHistory } from "../chat/history";
import type { ParleyUIMessage } from "../messages/message-types";
import { closeBlocks } from "../messages/recovery";
import { RUNNING } from "./turn-chat";
import { reopen } from "./turn-continue";
import type { LoadedTurn } from "./turn-load";

/** What the claim wrote and, when it had to, read afterwards. */
export type ClaimedTurn = {
  /** The conversation the model reads, ending with the question (or the answer it continues). */
  history: ParleyUIMessage[];
  assistantId: string;
  /** The answer continued after decisions: its message as stored, and its blocks. */
  continued?: { message: ParleyUIMessage; blocks: Block[] };
  /** The steps the continued answer has taken of its allowance (answer-steps.ts); 0 for a new answer. */
  stepsTaken: number;
};

/** Under a burst of turns the pool is busy: a turn waits its turn for a connection rather than failing. */
const TX_WAIT = { maxWait: 30_000, timeout: 30_000 };

/** The member's decisions; the answer continues only when no call is left waiting for an admin (409 otherwise). */
async function memberDecisions(ctx: TeamContext, chatId: string, decisions: Decision[]): Promise<string> {
  const { messageId, remaining } = await recordDecisions(ctx, chatId, decisions);
  if (remaining) throw Conflict("Your decisions are saved. The answer goes on once an admin has decided the other calls.");
  return messageId;
}

/** How long decisions that lost the chat to another turn wait for that turn's decisions to be stored. */
const DECIDED_ELSEWHERE_WAIT_MS = 2_000;

/**
 * Two tabs' decisions on one call, both read before either turn held the chat: the winner stores its
 * decisions right after it takes the chat. Whether any of `decisions` is decided within `ms`.
 */
async function decidedElsewhere(chatId: string, decisions: Decision[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await anyDecidedAlready(chatId, decisions)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Takes the chat for this turn unless another turn took it since it was read (409); stores a draft. */
async function claimChat(client: Pick<Awaited<ReturnType<typeof db>>, "chat">, t: LoadedTurn, data: { title?: string } = {}) {
  const fields = { activeStreamId: t.streamId, ...(t.request.modelId ? { modelId: t.model.modelRowId } : {}), ...data };
  if (t.draft) {
    const { id, teamId, userId, toolSelection, projectId, modelId, knowledge } = t.chat;
    // Two first messages of one draft at once: the second finds the chat stored and running (409).
    await client.chat
      .create({ data: { id, teamId, userId, toolSelection: toolSelection ?? undefined, knowledge: knowledge ?? undefined, projectId, modelId, ...fields } })
      .catch((err: unknown) => {
        throw (err as { code?: string }).code === "P2002" ? Conflict(RUNNING) : err;
      });
    return;
  }
  const claimed = await client.chat.updateMany({ where: { id: t.chat.id, activeStreamId: t.chat.activeStreamId }, data: fields });
  if (claimed.count !== 1) throw Conflict(RUNNING);
}

/** Writes the turn's first rows (see the header); rejects with 409 when another turn claimed the chat first. */
export async function claimTurn(ctx: TeamContext, t: LoadedTurn): Promise<ClaimedTurn> {
  const prisma = await db();
  const req = t.request;
  if (req.decisions?.length || req.afterDecisions || req.continue) {
    await claimChat(prisma, t).catch(async (err: unknown) => {
      // Lost to another tab's decisions on the same calls: that is what the person is told.
      if (req.decisions?.length && (err as Error).message === RUNNING && (await decidedElsewhere(t.chat.id, req.decisions, DECIDED_ELSEWHERE_WAIT_MS)))
        throw Conflict(ALREADY_DECIDED);
      throw err;
    });
    try {
      const messageId = req.continue
        ? await reopen(prisma, t.chat.id, req.continue)
        : req.afterDecisions
          ? await decidedAnswer(prisma, t.chat.id)
          : await memberDecisions(ctx, t.chat.id, req.decisions!);
      await prisma.message.update({ where: { id: messageId }, data: { status: "streaming" } });
      const { messages: history } = await loadHistory(t.chat.id, { maxChars: t.budget });
      const [blocks, row] = await Promise.all([
        prisma.block.findMany({ where: { messageId }, orderBy: { ordinal: "asc" } }),
        prisma.message.findUniqueOrThrow({ where: { id: messageId }, select: { metadata: true } }),
      ]);
      return { history, assistantId: messageId, continued: { message: history[history.length - 1], blocks }, stepsTaken: stepsTaken(blocks, row.metadata) };
    } catch (err) {
      await releaseChat(t);
      throw err;
    }
  }
  const question = t.question;
  await prisma.$transaction(async (tx) => {
    await claimChat(tx, t, t.firstTitle ? { title: t.firstTitle } : {});
    // Calls waiting on the branch end as superseded; a new version takes the branch from the old one on.
    await supersedePending(tx, ctx, t.chat.id);
    let parentId = t.replaces ? t.replaces.parentId : ((await branchTip(tx, t.chat.id))?.id ?? null);
    if (t.replaces) await leaveBranchFrom(tx, t.chat.id, t.replaces.seq);
    if (question) {
      // createMany: plain inserts, without reading the rows back.
      await tx.message.createMany({ data: { id: question.id, chatId: t.chat.id, parentId, role: "user", status: "done" } });
      await tx.block.createMany({ data: { messageId: question.id, ordinal: 0, kind: "text", status: "done", text: question.text } });
      if (question.files) await claimAttachments(tx, ctx, t.chat.id, question.id, question.files);
      if (question.resources)
        await tx.block.createMany({
          data: question.resources.map((data, i) => ({
            messageId: question.id,
            ordinal: (question.files?.length ?? 0) + i + 1,
            kind: "data" as const,
            status: "done",
            name: "resource",
            data,
          })),
        });
      parentId = question.id;
    }
    await tx.message.createMany({ data: { id: t.assistantId, chatId: t.chat.id, parentId, role: "assistant", status: "streaming", model: t.model.modelId } });
  }, TX_WAIT);
  let history = t.history;
  if (t.claimFirst) ({ messages: history } = await loadHistory(t.chat.id, { exclude: [question!.id, t.assistantId], maxChars: t.budget }));
  return { history: withQuestion(history, t), assistantId: t.assistantId, stepsTaken: 0 };
}

/** The history as loaded plus the question: what the model reads when the claim did not have to come first. */
export function withQuestion(history: ParleyUIMessage[], t: LoadedTurn): ParleyUIMessage[] {
  if (!t.question) return history;
  const attached = (t.question.resources ?? []).map((data) => ({ type: "data-resource" as const, data }));
  return [...history, { id: t.question.id, role: "user", parts: [{ type: "text", text: t.question.text }, ...(t.question.files ?? []), ...attached] }];
}

/**
 * Gives the chat back (the turn failed before it could stream). An answer it was to continue after
 * decisions ends as failed first, its decided calls aborted ("Not run: the answer failed."), so no
 * card stays "Approved by you. Running…".
 */
export async function releaseChat(t: LoadedTurn, continued?: string): Promise<void> {
  const prisma = await db();
  if (continued) {
    await prisma.$transaction(async (tx) => {
      await closeBlocks(tx, [continued], "failed", true);
      await tx.message.updateMany({ where: { id: continued, status: "streaming" }, data: { status: "error", finishReason: "error" } });
    });
  }
  await prisma.chat.updateMany({ where: { id: t.chat.id, activeStreamId: t.streamId }, data: { activeStreamId: null } });
}
