// Everything a turn does before it streams. First what can refuse it, so that a refused turn writes
// nothing: the chat (404), a turn still running in it (409), the model (409 when the team has none),
// the answer to regenerate (404 unless it is the chat's last). Two reads, side by side: the chat with
// its models (its chosen one, the team default and fallback, in one query), and the history, as much
// of it as the model's context window holds (history.ts).
//
// A new message's first rows (the chat claimed for this turn, the question, the title, the empty
// answer, and calls still waiting denied as superseded) are written in one transaction by `commit`,
// which the turn runs while the model request is already on its way; the answer's blocks are written
// after it. The model reads the history as it was before the turn, plus the question.
// Decisions on waiting calls are written before anything else, since they change what the model reads.
import crypto from "node:crypto";
import { db } from "../db/client";
import type { Block, Chat, Prisma } from "../db/generated/client";
import { AppError, Conflict, NotFound } from "../errors";
import { chatModelsInclude, resolveTurnModels, type ResolvedModel } from "../providers/resolve";
import type { TeamContext } from "../teams/context";
import { recordDecisions, supersedePending, type Decision } from "./approvals";
import { chatOf } from "./chats";
import { fitHistory, historyBudget, loadHistory } from "./history";
import type { ParleyUIMessage } from "./parts";
import type { Registry } from "./stream-registry";
import { titleFrom } from "./titles";

export type TurnRequest = {
  chatId: string;
  /** The new user message; absent when regenerating. */
  text?: string;
  /** Regenerate: the id of the last assistant message, replaced by a new answer. */
  regenerate?: string;
  /** A Model row id chosen in the composer; remembered for the chat. */
  modelId?: string;
  /** Decisions on the calls of the last answer that wait for approval; the answer then continues. */
  decisions?: Decision[];
};

export type TurnStart = {
  chat: Chat;
  model: ResolvedModel;
  fallback: ResolvedModel | null;
  /** The conversation the model reads, ending with the new question (or the answer it continues). */
  history: ParleyUIMessage[];
  assistantId: string;
  streamId: string;
  /** The answer continued after decisions: its message as stored, and its blocks. */
  continued?: { message: ParleyUIMessage; blocks: Block[] };
  /** Writes the turn's first rows, once; rejects with 409 when another turn claimed the chat first. */
  commit(): Promise<void>;
  /** Gives the chat back (the turn failed before it could stream). */
  release(): Promise<void>;
};

const RUNNING = "A reply is still being written in this chat. Wait for it or stop it first.";
const newId = (): string => crypto.randomUUID();
/** Under a burst of turns the pool is busy: a turn waits its turn for a connection rather than failing. */
const TX_WAIT = { maxWait: 30_000, timeout: 30_000 };

/** Whether the answer a conversation ends with has calls waiting for a person. */
function waitsForApproval(history: ParleyUIMessage[]): boolean {
  const last = history.at(-1);
  return last?.role === "assistant" && last.parts.some((p) => (p as { state?: string }).state === "approval-requested");
}

export async function startTurn(ctx: TeamContext, req: TurnRequest, registry: Registry): Promise<TurnStart> {
  const prisma = await db();
  if (!req.regenerate && !req.text && !req.decisions?.length) throw new AppError("InvalidInput", 400, "A message needs text.");

  // The history is read before the chat is known to be the caller's; it is only used once it is. Its
  // budget is the default window's until the model is known; the model's own is applied below.
  const [chat, before] = await Promise.all([
    chatOf(ctx, req.chatId, chatModelsInclude),
    req.decisions ? undefined : loadHistory(req.chatId, { maxChars: historyBudget(null) }),
  ]);
  if (registry.local.has(chat.id) || (chat.activeStreamId && (await registry.streams.hasExistingStream(chat.activeStreamId)) === true)) {
    throw Conflict(RUNNING);
  }
  const { primary: model, fallback } = await resolveTurnModels(ctx.team.id, req.modelId ?? chat.modelId, chat);
  const budget = historyBudget(model.contextWindow);

  const streamId = newId();
  /** Takes the chat for this turn unless another turn took it since it was read (409). */
  const claim = async (client: Prisma.TransactionClient, data: { title?: string } = {}) => {
    const claimed = await client.chat.updateMany({
      where: { id: chat.id, activeStreamId: chat.activeStreamId },
      data: { activeStreamId: streamId, ...(req.modelId ? { modelId: model.modelRowId } : {}), ...data },
    });
    if (claimed.count !== 1) throw Conflict(RUNNING);
  };
  const release = async () => {
    await prisma.chat.updateMany({ where: { id: chat.id, activeStreamId: streamId }, data: { activeStreamId: null } });
  };
  const base = { chat, model, fallback, streamId, release };

  if (req.decisions?.length) {
    await claim(prisma);
    try {
      const { messageId } = await recordDecisions(ctx, chat.id, req.decisions);
      await prisma.message.update({ where: { id: messageId }, data: { status: "streaming" } });
      const { messages: history } = await loadHistory(chat.id, { maxChars: budget });
      const blocks = await prisma.block.findMany({ where: { messageId }, orderBy: { ordinal: "asc" } });
      return { ...base, history, assistantId: messageId, continued: { message: history[history.length - 1], blocks }, commit: async () => {} };
    } catch (err) {
      await release();
      throw err;
    }
  }

  // A model with a window larger than the default reads further back; a smaller one, less.
  let { messages: history } =
    before!.cut && budget > historyBudget(null) ? await loadHistory(chat.id, { maxChars: budget }) : fitHistory(before!, budget);
  if (req.regenerate) {
    const last = history.at(-1);
    if (!last || last.id !== req.regenerate || last.role !== "assistant") throw NotFound("Only the last answer of this chat can be regenerated.");
    history = history.slice(0, -1);
  }
  const assistantId = newId();
  const question = req.regenerate ? undefined : { id: newId(), text: req.text! };

  let committing: Promise<void> | undefined;
  const commit = () =>
    (committing ??= prisma.$transaction(async (tx) => {
      await claim(tx, question && !chat.title ? { title: titleFrom(question.text) } : {});
      if (req.regenerate) {
        await tx.message.delete({ where: { id: req.regenerate } });
      } else {
        await supersedePending(tx, ctx, chat.id);
        // createMany: plain inserts, without reading the rows back.
        await tx.message.createMany({ data: { id: question!.id, chatId: chat.id, role: "user", status: "done" } });
        await tx.block.createMany({ data: { messageId: question!.id, ordinal: 0, kind: "text", status: "done", text: question!.text } });
      }
      await tx.message.createMany({ data: { id: assistantId, chatId: chat.id, role: "assistant", status: "streaming", model: model.modelId } });
    }, TX_WAIT));

  // Calls waiting in the last answer are denied by the new message, and the model reads them as
  // denied: that history is read after the transaction.
  if (question && waitsForApproval(history)) {
    await commit();
    ({ messages: history } = await loadHistory(chat.id, { exclude: [question.id, assistantId], maxChars: budget }));
  }
  if (question) history = [...history, { id: question.id, role: "user", parts: [{ type: "text", text: question.text }] }];
  return { ...base, history, assistantId, commit };
}
