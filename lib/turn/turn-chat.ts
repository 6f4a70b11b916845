// The chat a turn runs in. `chatForTurn` reads it: the caller's chat with its models (its chosen one,
// the team default and fallback, in one query), its owner's personal instructions and its project's;
// another user's chat is 404. `running` says whether a turn runs in it (here, or in another process
// whose stream is live), and `turnEnded` waits a moment for that turn to end.
//
// A chat's first message may come from a draft (`newChat`): a chat the browser opened under an id
// from `draftChatId` and never stored. When no chat has that id, `chatForTurn` builds it, the
// caller's, with the tools chosen for it (checked against the team: 404 for foreign ids), and the
// claim stores it (turn-claim.ts) with its first-words title; started in a project, it is filed there
// and takes the project's default model and tools (lib/projects) unless the browser chose others. An
// id of any other user's chat is 404, as always.
import { db } from "../db/client";
import type { Chat, Prisma } from "../db/generated/client";
import { NotFound } from "../errors";
import { chatModelsInclude } from "../providers/resolve";
import type { TeamContext } from "../teams/team-context";
import { checkSelection, type ToolSelection } from "../tools/selection";
import { newChatSelection } from "../tools/member-tools";
import { fileableProject } from "../projects/projects";
import { checkKnowledgeChoice, type KnowledgeChoice } from "../knowledge/chat-bases";
import { DRAFT_ID, ownChat } from "../chat/chats";
import type { Registry } from "./stream-registry";

/** What the browser chose for a draft chat: its tools, the project it was started in, its knowledge bases. */
export type NewChat = { tools?: ToolSelection; projectId?: string; knowledge?: KnowledgeChoice };

export const RUNNING = "A reply is still being written in this chat. Wait for it or stop it first.";

/**
 * The chat with its models, its owner's (the caller's) personal instructions, its project's, and its
 * team's budgets (for the budget check, lib/usage/budgets.ts), in one query.
 */
export const turnChatInclude = {
  ...chatModelsInclude,
  team: {
    select: { ...chatModelsInclude.team.select, budgets: { select: { id: true, scope: true, userId: true, modelRowId: true, metric: true, limit: true } } },
  },
  user: { select: { instructions: true } },
  project: { select: { instructions: true } },
} as const;

/** A stored chat as `chatForTurn` reads it (turnChatInclude); the route may read it beside the session (turn-input.ts). */
export type StoredTurnChat = Prisma.ChatGetPayload<{ include: typeof turnChatInclude }>;

/** Whether a turn runs in the chat (here, or in another process whose stream is live). */
export async function running(registry: Registry, chat: Pick<Chat, "id" | "activeStreamId">): Promise<boolean> {
  if (registry.local.has(chat.id)) return true;
  return !!chat.activeStreamId && (await registry.streams.hasExistingStream(chat.activeStreamId)) === true;
}

/** Waits up to `ms` for the chat's running turn to end; whether it did. */
export async function turnEnded(registry: Registry, chatId: string, ms: number): Promise<Chat | undefined> {
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

/**
 * The caller's chat with its models; for a new chat's first message, the draft it stores (see the
 * header). `read` is the chat with this id as read already beside the session (anyone's, or null: none), else the caller's is read here.
 */
export async function chatForTurn(ctx: TeamContext, chatId: string, newChat: NewChat | undefined, read?: StoredTurnChat | null) {
  const prisma = await db();
  const stored = read !== undefined ? read : await prisma.chat.findFirst({ where: ownChat(ctx, chatId), include: turnChatInclude });
  // Read by its id beside the session (turn-input.ts), it counts only when it is the caller's, in the team they act in.
  if (stored && stored.id === chatId && stored.teamId === ctx.team.id && stored.userId === ctx.user.id) {
    const {
      user,
      project,
      team: { budgets, ...team },
      ...chat
    } = stored;
    return { chat: { ...chat, team }, instructions: user.instructions, projectInstructions: project?.instructions ?? null, budgets, draft: false };
  }
  if (!newChat || !DRAFT_ID.test(chatId)) throw NotFound("No such chat.");
  // Read side by side with the check that no chat has the id, which answers first (404 "No such chat.").
  const reads = Promise.all([
    prisma.team.findUniqueOrThrow({ where: { id: ctx.team.id }, select: chatModelsInclude.team.select }),
    prisma.user.findUniqueOrThrow({ where: { id: ctx.user.id }, select: { instructions: true } }),
    newChat.tools ? checkSelection(ctx.team.id, newChat.tools) : null,
    // Started in a project (one the member may file chats in, else 404): its default model and tools
    // when the browser sent none.
    newChat.projectId ? fileableProject(ctx, newChat.projectId) : null,
    // No tools sent (the message went before the picker had loaded them) and no project: the tools the
    // member's new chats start with, as a chat stored through POST /api/chats gets.
    newChat.tools || newChat.projectId ? null : newChatSelection(ctx),
    // Knowledge bases it searches: ones the member sees (404 for any other).
    newChat.knowledge ? checkKnowledgeChoice(ctx, newChat.knowledge) : null,
  ]);
  reads.catch(() => {});
  if (await prisma.chat.count({ where: { id: chatId } })) throw NotFound("No such chat.");
  const [team, asker, chosenTools, project, memberTools, knowledge] = await reads;
  const toolSelection = chosenTools ?? project?.toolSelection ?? memberTools ?? (await newChatSelection(ctx));
  const now = new Date();
  const chat = {
    id: chatId,
    teamId: ctx.team.id,
    userId: ctx.user.id,
    title: null,
    modelId: project?.defaultModelId ?? null,
    toolSelection,
    allowedTools: null,
    knowledge,
    activeStreamId: null,
    pinnedAt: null,
    archivedAt: null,
    projectId: project?.id ?? null,
    createdAt: now,
    updatedAt: now,
  };
  return {
    chat: { ...chat, model: null, team },
    instructions: asker.instructions,
    projectInstructions: project?.instructions ?? null,
    budgets: undefined,
    draft: true,
  };
}
