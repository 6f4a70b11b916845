// What a chat's knowledge picker shows and saves: the knowledge bases the member may search in it (the
// team-wide ones they see, and its project's, which its chats always search) and the chat's choice
// (lib/knowledge/chat-bases.ts). The chat must be the caller's own (404 otherwise, chats.ts); a base
// they cannot see is 404 and nothing is saved. A draft chat's picker reads the options of the project it
// starts in and sends its choice with the first message (turn-chat.ts).
import { db } from "../db/client";
import { checkKnowledgeChoice, knowledgeOptions, NO_KNOWLEDGE, readKnowledgeChoice, type KnowledgeChoice, type KnowledgeOption } from "../knowledge/chat-bases";
import { getProject } from "../projects/projects";
import type { TeamContext } from "../teams/team-context";
import { getChat } from "./chats";

export type ChatKnowledge = { options: KnowledgeOption[]; choice: KnowledgeChoice };

export async function chatKnowledge(ctx: TeamContext, chatId: string): Promise<ChatKnowledge> {
  const chat = await getChat(ctx, chatId);
  return { options: await knowledgeOptions(ctx, chat.projectId), choice: readKnowledgeChoice(chat.knowledge) };
}

export async function setChatKnowledge(ctx: TeamContext, chatId: string, choice: KnowledgeChoice): Promise<KnowledgeChoice> {
  const chat = await getChat(ctx, chatId);
  const checked = await checkKnowledgeChoice(ctx, choice);
  const prisma = await db();
  await prisma.chat.update({ where: { id: chat.id }, data: { knowledge: checked } });
  return checked;
}

/** The picker of a chat not created yet (in a project the caller sees, or none): nothing chosen. */
export async function newChatKnowledge(ctx: TeamContext, projectId?: string): Promise<ChatKnowledge> {
  if (projectId) await getProject(ctx, projectId);
  return { options: await knowledgeOptions(ctx, projectId ?? null), choice: NO_KNOWLEDGE };
}
