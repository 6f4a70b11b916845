// Chats of a user in a team: list (newest first), create, read, rename, delete. A chat is visible
// only to its owner and only in its team; anything else is 404. `ownChat` is that rule, the one place
// it is written: every read or write of a chat by a member goes through it.
import { z } from "zod";
import { db } from "../db/client";
import type { Chat, Prisma } from "../db/generated/client";
import { NotFound } from "../errors";
import type { TeamContext } from "../teams/context";
import { personalModelOf } from "../teams/personal-model";

export const renameChatSchema = z.object({ title: z.string().trim().min(1, "Enter a title.").max(120, "At most 120 characters.") });

/** The chats `ctx`'s user may see: their own, in the current team. */
const ownedBy = (ctx: TeamContext) => ({ teamId: ctx.team.id, userId: ctx.user.id });

/** The `where` of the caller's chat `chatId` (no row matches another user's or another team's chat). */
export const ownChat = (ctx: TeamContext, chatId: string): Prisma.ChatWhereInput => ({ id: chatId, ...ownedBy(ctx) });

export type ChatSummary = { id: string; title: string | null; updatedAt: Date };

export async function listChats(ctx: TeamContext, limit = 100): Promise<ChatSummary[]> {
  const prisma = await db();
  return prisma.chat.findMany({
    where: ownedBy(ctx),
    select: { id: true, title: true, updatedAt: true },
    orderBy: { updatedAt: "desc" },
    take: limit,
  });
}

/** A new chat, starting with the member's own default model when they chose one (else the team's). */
export async function createChat(ctx: TeamContext): Promise<{ id: string }> {
  const prisma = await db();
  const modelId = await personalModelOf(ctx);
  return prisma.chat.create({ data: { ...ownedBy(ctx), modelId }, select: { id: true } });
}

export async function getChat(ctx: TeamContext, chatId: string): Promise<Chat> {
  return chatOf(ctx, chatId, {});
}

/** The caller's chat with related rows in the same query (`include`), or 404. */
export async function chatOf<I extends Prisma.ChatInclude>(ctx: TeamContext, chatId: string, include: I) {
  const prisma = await db();
  const chat = await prisma.chat.findFirst({ where: ownChat(ctx, chatId), include });
  if (!chat) throw NotFound("No such chat.");
  return chat;
}

export async function renameChat(ctx: TeamContext, chatId: string, title: string): Promise<void> {
  const prisma = await db();
  const res = await prisma.chat.updateMany({ where: ownChat(ctx, chatId), data: { title } });
  if (res.count !== 1) throw NotFound("No such chat.");
}

export async function deleteChat(ctx: TeamContext, chatId: string): Promise<void> {
  const prisma = await db();
  const res = await prisma.chat.deleteMany({ where: ownChat(ctx, chatId) });
  if (res.count !== 1) throw NotFound("No such chat.");
}
