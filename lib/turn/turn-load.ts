// A turn's first step. `loadTurn` reads, and refuses before anything is written: the chat (404),
// a turn still running in it (409; decisions wait a moment for it instead, see below), the model (409
// when the team has none), the message a new version replaces (404 unless it is on the chat's branch,
// branches.ts), the answer to continue (409 unless it stopped at the end of the branch;
// turn-continue.ts). Two reads, side by side: the chat with its models (turn-chat.ts), and the history
// of the branch, as much of it as the model's context window holds (history.ts); for a new version,
// the history before the message it replaces. The turn's first rows are written next (turn-claim.ts).
//
// Decisions clicked as soon as a card appears can arrive while the turn that asked is still being
// stored: they wait for it (up to DECISION_WAIT_MS) instead of being refused; a decision on a call
// decided first elsewhere is refused at once.
import crypto from "node:crypto";
import { db } from "../db/client";
import type { Chat } from "../db/generated/client";
import { AppError, Conflict } from "../errors";
import { NoModelError, resolveTurnModels, type ResolvedModel } from "../providers/resolve";
import type { TeamContext } from "../teams/team-context";
import type { TeamBudget } from "../usage/budgets";
import { questionFiles, type FilePart } from "../attachments/store";
import { ALREADY_DECIDED, anyDecidedAlready, type Decision } from "../approvals/approvals";
import { branchMessage } from "../chat/branches";
import { fitHistory, historyBudget, loadHistory, type History } from "../chat/history";
import { readAttachments } from "../mcp-chat/mcp-catalog";
import type { ParleyUIMessage, ResourceData } from "../messages/message-types";
import type { Registry } from "./stream-registry";
import { titleFrom } from "../chat/titles";
import { chatForTurn, running, RUNNING, turnEnded, type NewChat, type StoredTurnChat } from "./turn-chat";
import { continuable } from "./turn-continue";

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
  newChat?: NewChat;
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
  /** The team's budgets, when they were read with the chat (lib/usage/budgets.ts reads them otherwise). */
  budgets?: TeamBudget[];
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

/** How long decisions wait for the turn that asked for them to be stored. */
const DECISION_WAIT_MS = 5_000;
const newId = (): string => crypto.randomUUID();

/** Whether the answer a conversation ends with has calls waiting for a person, or decided but not run. */
function waitsForApproval(history: ParleyUIMessage[]): boolean {
  const last = history.at(-1);
  return last?.role === "assistant" && last.parts.some((p) => ["approval-requested", "approval-responded"].includes((p as { state?: string }).state ?? ""));
}

/** What the caller read of the turn before it knew who asks (turn-input.ts): the chat read beside the session, the history. */
export type EarlyReads = {
  /** The chat the body names, by its id, with its models and its team's budgets (anyone's: chatForTurn checks it; null: none). */
  chat?: StoredTurnChat | null;
  /** `earlyHistory(request)`, started before the session was checked. */
  history?: Promise<History>;
};

/** A new version of a message (a regenerated answer, an edited question) follows what came before it. */
const replacingOf = (req: TurnRequest) =>
  req.regenerate ? { id: req.regenerate, role: "assistant" as const } : req.edit ? { id: req.edit, role: "user" as const } : undefined;

/**
 * The history a new message's turn reads, started before the chat is known to be the caller's (it is
 * only used once it is); undefined for turns that read theirs later. Its budget is the default
 * window's until the model is known; the model's own is applied in `loadTurn`.
 */
export function earlyHistory(req: TurnRequest): Promise<History> | undefined {
  return req.decisions || req.afterDecisions || req.continue || replacingOf(req) ? undefined : loadHistory(req.chatId, { maxChars: historyBudget(null) });
}

export async function loadTurn(ctx: TeamContext, req: TurnRequest, registry: Registry, early: EarlyReads = {}): Promise<LoadedTurn> {
  if (!req.regenerate && !req.text && !req.decisions?.length && !req.continue && !req.afterDecisions)
    throw new AppError("InvalidInput", 400, "A message needs text.");
  if (req.edit && !req.text) throw new AppError("InvalidInput", 400, "An edited message needs text.");
  const prisma = await db();
  const replacing = replacingOf(req);

  const [found, before, files] = await Promise.all([
    chatForTurn(ctx, req.chatId, req.newChat, early.chat),
    early.history ?? earlyHistory(req),
    questionFiles(ctx, req.text && !req.edit ? req.attachments : undefined),
  ]);
  let { chat } = found;
  if (await running(registry, chat)) {
    // A decision another tab (or an admin) took first, whose call now runs: said at once, not after the wait.
    if (req.decisions?.length && (await anyDecidedAlready(chat.id, req.decisions))) throw Conflict(ALREADY_DECIDED);
    const ended = req.decisions || req.afterDecisions ? await turnEnded(registry, chat.id, DECISION_WAIT_MS) : undefined;
    if (!ended) {
      // The other tab's decision may have been stored only while this one waited (its turn had started
      // but not yet claimed the chat): then it is that, not a reply being written.
      if (req.decisions?.length && (await anyDecidedAlready(chat.id, req.decisions))) throw Conflict(ALREADY_DECIDED);
      throw Conflict(RUNNING);
    }
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
    budgets: found.budgets,
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
