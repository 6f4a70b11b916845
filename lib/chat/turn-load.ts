// A turn's first two steps. `loadTurn` reads, and refuses before anything is written: the chat (404),
// a turn still running in it (409; decisions wait a moment for it instead, see below), the model (409
// when the team has none), the message a new version replaces (404 unless it is on the chat's branch,
// branches.ts), the answer to continue (409 unless it stopped at the end of the branch). Two reads,
// side by side: the chat with its models (its chosen one, the team default and fallback, in one
// query), and the history of the branch, as much of it as the model's context window holds
// (history.ts); for a new version, the history before the message it replaces.
//
// `claimTurn` writes the turn's first rows in one transaction: the chat claimed for this turn, the
// question (after the branch's newest message, or beside the question it edits), the title, the empty
// answer, the branch moved to the new version, and calls still waiting (or decided but never run)
// ended as superseded. For a new message the turn runs it while the model request is already on its
// way, and the model reads the history as it was before the turn, plus the question. Decisions on
// waiting calls, and a stopped answer to continue, are written first (they change what the model
// reads), so their history is read after the claim.
//
// Decisions clicked as soon as a card appears can arrive while the turn that asked is still being
// stored: they wait for it (up to DECISION_WAIT_MS) instead of being refused; a decision on a call
// decided first elsewhere is refused at once.
//
// A chat's first message may come from a draft (`newChat`): a chat the browser opened under an id
// from `draftChatId` and never stored. When no chat has that id, the claim stores it, the caller's,
// with the tools chosen for it (checked against the team: 404 for foreign ids) and its first-words
// title; started in a project, it is filed there and takes the project's default model and tools
// (lib/projects) unless the browser chose others. An id of any other user's chat is 404, as always.
import crypto from "node:crypto";
import { db } from "../db/client";
import type { Block, Chat, MessageStatus } from "../db/generated/client";
import { AppError, Conflict, NotFound } from "../errors";
import { chatModelsInclude, NoModelError, resolveTurnModels, type ResolvedModel } from "../providers/resolve";
import type { TeamContext } from "../teams/team-context";
import { endedAtStepLimit, restartAllowance, STEP_LIMIT_CODE, stepsTaken } from "./answer-steps";
import { ALREADY_DECIDED, anyDecidedAlready, decidedAnswer, recordDecisions, supersedePending, type Decision } from "./approvals";
import { branchMessage, branchTip, leaveBranchFrom } from "./branches";
import { DRAFT_ID, ownChat } from "./chats";
import { fitHistory, historyBudget, loadHistory } from "./history";
import type { ParleyUIMessage } from "./message-types";
import { closeBlocks } from "./recovery";
import type { Registry } from "./stream-registry";
import { titleFrom } from "./titles";
import { readAttachments } from "./mcp-catalog";
import type { ResourceData } from "./message-types";
import { checkSelection, type ToolSelection } from "../tools/selection";
import { newChatSelection } from "../tools/member-tools";
import { claimAttachments, questionFiles, type FilePart } from "../attachments/store";
import { fileableProject } from "../projects/projects";

export type TurnRequest = {
  chatId: string;
  /** The new user message; absent when regenerating. */
  text?: string;
  /** Regenerate: the id of an answer of the chat's branch; a new version of it is written. */
  regenerate?: string;
  /** Edit: the id of a question of the chat's branch; `text` is its new version, answered anew. */
  edit?: string;
  /** Continue: the id of the stopped answer at the end of the branch; the model goes on with it. */
  continue?: string;
  /** A Model row id chosen in the composer; remembered for the chat. */
  modelId?: string;
  /** Decisions on the calls of the last answer that wait for approval; the answer then continues. */
  decisions?: Decision[];
  /** Every call of the last answer was decided already (by an admin, a time limit): the answer continues. */
  afterDecisions?: boolean;
  /** The chat is a draft: this message stores it, with these tools (in this project), unless it is stored already. */
  newChat?: { tools?: ToolSelection; projectId?: string };
  /** With a new message: ids of the caller's unsent attachments it carries (lib/attachments/store.ts). */
  attachments?: string[];
  /** MCP resources attached to the new message (mcp-catalog.ts reads them). */
  resources?: { serverId: string; uri: string }[];
};

/** What a turn read before it writes anything. */
export type LoadedTurn = {
  request: TurnRequest;
  chat: Chat;
  /** The caller's personal instructions, read with the chat (null: none). */
  instructions: string | null;
  /** The chat's project's instructions, read with the chat (null: none, or no project). */
  projectInstructions: string | null;
  /** The chat is not stored yet: the claim stores it. */
  draft: boolean;
  /** The chat's title until the model names it: the question's first words (set when it had none). */
  firstTitle?: string;
  model: ResolvedModel;
  fallback: ResolvedModel | null;
  budget: number;
  streamId: string;
  assistantId: string;
  question?: { id: string; text: string; files?: FilePart[]; resources?: ResourceData[] };
  /** The message a new version replaces on the branch (regenerate, edit). */
  replaces?: { id: string; seq: number; parentId: string | null };
  /** The conversation as read (without the question); decisions read theirs when they claim. */
  history: ParleyUIMessage[];
  /** The history can only be read once the first rows are written (decisions; superseded calls). */
  claimFirst: boolean;
};

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

/** The answers Continue may go on with. */
const CONTINUABLE: MessageStatus[] = ["stopped", "interrupted"];
const NOT_CONTINUABLE = "Only a stopped answer at the end of the chat can be continued.";
export const RUNNING = "A reply is still being written in this chat. Wait for it or stop it first.";
/** How long decisions wait for the turn that asked for them to be stored. */
const DECISION_WAIT_MS = 5_000;
const newId = (): string => crypto.randomUUID();
/** Under a burst of turns the pool is busy: a turn waits its turn for a connection rather than failing. */
const TX_WAIT = { maxWait: 30_000, timeout: 30_000 };

/** The chat with its models, its owner's (the caller's) personal instructions and its project's, in one query. */
const turnChatInclude = { ...chatModelsInclude, user: { select: { instructions: true } }, project: { select: { instructions: true } } } as const;

/** Whether the answer a conversation ends with has calls waiting for a person, or decided but not run. */
function waitsForApproval(history: ParleyUIMessage[]): boolean {
  const last = history.at(-1);
  return last?.role === "assistant" && last.parts.some((p) => ["approval-requested", "approval-responded"].includes((p as { state?: string }).state ?? ""));
}

/** Whether a turn runs in the chat (here, or in another process whose stream is live). */
export async function running(registry: Registry, chat: Pick<Chat, "id" | "activeStreamId">): Promise<boolean> {
  if (registry.local.has(chat.id)) return true;
  return !!chat.activeStreamId && (await registry.streams.hasExistingStream(chat.activeStreamId)) === true;
}

/** Waits up to `ms` for the chat's running turn to end; whether it did. */
async function turnEnded(registry: Registry, chatId: string, ms: number): Promise<Chat | undefined> {
  const prisma = await db();
  const deadline = Date.now() + ms;
  for (;;) {
    const local = registry.local.get(chatId);
    const left = deadline - Date.now();
    if (left <= 0) return undefined;
    // Here: the turn says when it has ended. In another process: its chat row does (checked every 100 ms).
    if (local) await Promise.race([local.ended.catch(() => {}), new Promise((r) => setTimeout(r, left))]);
    else await new Promise((r) => setTimeout(r, Math.min(100, left)));
    const chat = await prisma.chat.findUniqueOrThrow({ where: { id: chatId } });
    if (!(await running(registry, chat))) return chat;
  }
}

export async function loadTurn(ctx: TeamContext, req: TurnRequest, registry: Registry): Promise<LoadedTurn> {
  if (!req.regenerate && !req.text && !req.decisions?.length && !req.continue && !req.afterDecisions)
    throw new AppError("InvalidInput", 400, "A message needs text.");
  if (req.edit && !req.text) throw new AppError("InvalidInput", 400, "An edited message needs text.");
  const prisma = await db();
  // A new version of a message (a regenerated answer, an edited question) follows what came before it.
  const replacing = req.regenerate ? { id: req.regenerate, role: "assistant" as const } : req.edit ? { id: req.edit, role: "user" as const } : undefined;

  // The history is read before the chat is known to be the caller's; it is only used once it is. Its
  // budget is the default window's until the model is known; the model's own is applied below.
  const [found, before, files] = await Promise.all([
    chatForTurn(ctx, req),
    req.decisions || req.afterDecisions || req.continue || replacing ? undefined : loadHistory(req.chatId, { maxChars: historyBudget(null) }),
    questionFiles(ctx, req.text && !req.edit ? req.attachments : undefined),
  ]);
  let { chat } = found;
  if (await running(registry, chat)) {
    // A decision another tab (or an admin) took first, whose call now runs: said at once, not after the wait.
    if (req.decisions?.length && (await anyDecidedAlready(chat.id, req.decisions))) throw Conflict(ALREADY_DECIDED);
    const ended = req.decisions || req.afterDecisions ? await turnEnded(registry, chat.id, DECISION_WAIT_MS) : undefined;
    if (!ended) throw Conflict(RUNNING);
    chat = { ...chat, activeStreamId: ended.activeStreamId };
  }
  const replaced = replacing && (await branchMessage(prisma, chat.id, replacing.id, replacing.role));
  if (req.continue) await continuable(prisma, chat.id, req.continue);
  const { primary: model, fallback } = await resolveTurnModels(ctx.team.id, req.modelId ?? chat.modelId, chat).catch((err: unknown) => {
    throw err instanceof NoModelError ? new NoModelError(ctx.team.role === "admin") : err;
  });
  const budget = historyBudget(model.contextWindow);
  const base = {
    request: req,
    chat,
    instructions: found.instructions,
    projectInstructions: found.projectInstructions,
    draft: found.draft,
    model,
    fallback,
    budget,
    streamId: newId(),
  };
  if (req.decisions?.length || req.afterDecisions) return { ...base, assistantId: "", history: [], claimFirst: true };
  if (req.continue) return { ...base, assistantId: req.continue, history: [], claimFirst: true };
  const question = req.text
    ? {
        id: newId(),
        text: req.text,
        ...(files.length ? { files } : {}),
        resources: req.resources?.length ? await readAttachments(ctx, req.resources) : undefined,
      }
    : undefined;
  const firstTitle = question && !chat.title ? titleFrom(question.text) : undefined;
  if (replaced) {
    const { messages: history } = await loadHistory(chat.id, { maxChars: budget, beforeSeq: replaced.seq });
    return { ...base, assistantId: newId(), question, firstTitle, replaces: replaced, history, claimFirst: false };
  }

  // A model with a window larger than the default reads further back; a smaller one, less.
  const { messages: history } = before!.cut && budget > historyBudget(null) ? await loadHistory(chat.id, { maxChars: budget }) : fitHistory(before!, budget);
  // Calls waiting in the last answer are denied by the new message, and the model reads them as denied.
  return { ...base, assistantId: newId(), question, firstTitle, history, claimFirst: waitsForApproval(history) };
}

/** Whether an answer can be continued: stopped, interrupted, or ended at its step limit. */
async function canContinue(prisma: Awaited<ReturnType<typeof db>>, answer: { id: string; status: MessageStatus }): Promise<boolean> {
  return CONTINUABLE.includes(answer.status) || (answer.status === "done" && (await endedAtStepLimit(prisma, answer.id)));
}

/** Only a stopped (or interrupted, or step-limited) answer at the end of the branch can be continued (404 / 409). */
async function continuable(prisma: Awaited<ReturnType<typeof db>>, chatId: string, answerId: string): Promise<void> {
  const answer = await branchMessage(prisma, chatId, answerId, "assistant");
  const tip = await branchTip(prisma, chatId);
  if (tip?.id !== answer.id || !(await canContinue(prisma, answer))) throw Conflict(NOT_CONTINUABLE);
}

/** The member's decisions; the answer continues only when no call is left waiting for an admin (409 otherwise). */
async function memberDecisions(ctx: TeamContext, chatId: string, decisions: Decision[]): Promise<string> {
  const { messageId, remaining } = await recordDecisions(ctx, chatId, decisions);
  if (remaining) throw Conflict("Your decisions are saved. The answer goes on once an admin has decided the other calls.");
  return messageId;
}

/**
 * Opens a stopped (or step-limited) answer again for its continuation, without the notice that it
 * ended, and with a new allowance of steps (answer-steps.ts); 409 when it cannot be continued now.
 */
async function reopen(prisma: Awaited<ReturnType<typeof db>>, chatId: string, answerId: string): Promise<string> {
  const answer = await prisma.message.findFirst({ where: { id: answerId, chatId, onBranch: true }, select: { id: true, status: true } });
  if (!answer || !(await canContinue(prisma, answer))) throw Conflict(NOT_CONTINUABLE);
  const opened = await prisma.message.updateMany({ where: { id: answerId, status: answer.status }, data: { status: "streaming", finishReason: null } });
  if (opened.count !== 1) throw Conflict(NOT_CONTINUABLE);
  await prisma.block.deleteMany({
    where: { messageId: answerId, kind: "data", name: "notice", OR: ["Stopped", STEP_LIMIT_CODE].map((code) => ({ data: { path: ["code"], equals: code } })) },
  });
  await restartAllowance(prisma, answerId);
  return answerId;
}

/** The caller's chat with its models; for a new chat's first message, the draft it stores (see the header). */
async function chatForTurn(ctx: TeamContext, req: TurnRequest) {
  const prisma = await db();
  const stored = await prisma.chat.findFirst({ where: ownChat(ctx, req.chatId), include: turnChatInclude });
  if (stored) {
    const { user, project, ...chat } = stored;
    return { chat, instructions: user.instructions, projectInstructions: project?.instructions ?? null, draft: false };
  }
  if (!req.newChat || !DRAFT_ID.test(req.chatId) || (await prisma.chat.count({ where: { id: req.chatId } }))) throw NotFound("No such chat.");
  const [team, asker, chosenTools, project] = await Promise.all([
    prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id }, select: chatModelsInclude.team.select }),
    prisma.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { instructions: true } }),
    req.newChat.tools ? checkSelection(ctx.team.id, req.newChat.tools) : null,
    // Started in a project (one the member may file chats in, else 404): its default model and tools
    // when the browser sent none.
    req.newChat.projectId ? fileableProject(ctx, req.newChat.projectId) : null,
  ]);
  // No tools sent (the message went before the picker had loaded them): the tools the member's new
  // chats start with, as a chat stored through POST /api/chats gets.
  const toolSelection = chosenTools ?? project?.toolSelection ?? (await newChatSelection(ctx));
  const now = new Date();
  const chat = {
    id: req.chatId,
    teamId: ctx.team.id,
    userId: ctx.user.id,
    title: null,
    modelId: project?.defaultModelId ?? null,
    toolSelection,
    allowedTools: null,
    activeStreamId: null,
    pinnedAt: null,
    archivedAt: null,
    projectId: project?.id ?? null,
    createdAt: now,
    updatedAt: now,
  };
  return { chat: { ...chat, model: null, team }, instructions: asker.instructions, projectInstructions: project?.instructions ?? null, draft: true };
}

/** Takes the chat for this turn unless another turn took it since it was read (409); stores a draft. */
async function claimChat(client: Pick<Awaited<ReturnType<typeof db>>, "chat">, t: LoadedTurn, data: { title?: string } = {}) {
  const fields = { activeStreamId: t.streamId, ...(t.request.modelId ? { modelId: t.model.modelRowId } : {}), ...data };
  if (t.draft) {
    const { id, teamId, userId, toolSelection, projectId, modelId } = t.chat;
    // Two first messages of one draft at once: the second finds the chat stored and running (409).
    await client.chat
      .create({ data: { id, teamId, userId, toolSelection: toolSelection ?? undefined, projectId, modelId, ...fields } })
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
    await claimChat(prisma, t);
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
