// Chats of a user in a team: create, read, rename, pin, archive, file in a project, delete (the list is chat-list.ts).
// A chat is visible only to its owner and only in its team; anything else is 404. `ownChat` is that
// rule, the one place it is written: every read or write of a chat by a member goes through it.
// A new chat in the browser is a draft with an id from `draftChatId` until its first message, which
// stores it (turn-claim.ts); `createChat` stores an empty one at once (the API's POST /api/chats).
import crypto from "node:crypto";
import { z } from "zod";
import { db } from "../db/client";
import type { Chat, Prisma } from "../db/generated/client";
import { NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { newChatSelection } from "../tools/member-tools";
import { personalModelOf } from "../teams/personal-model";
import { fileableProject } from "../projects/projects";
import { idField } from "../validation";

const titleField = z.string().trim().min(1, "Enter a title.").max(120, "At most 120 characters.");

/** What PATCH /api/chat/<id> changes: its title, whether it is pinned or archived, its project (null: none). */
export const updateChatSchema = z
  .object({ title: titleField.optional(), pinned: z.boolean().optional(), archived: z.boolean().optional(), projectId: idField.nullable().optional() })
  .strict()
  .refine((b) => b.title !== undefined || b.pinned !== undefined || b.archived !== undefined || b.projectId !== undefined, { message: "Nothing to change." });
export type ChatUpdate = z.infer<typeof updateChatSchema>;

/** The shape of a draft chat's id (and of the ids Prisma gives): 20 to 40 lowercase letters and digits. */
export const DRAFT_ID = /^[a-z0-9]{20,40}$/;

/** An id for a chat that is not stored yet (its first message stores it under this id). */
export function draftChatId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** The chats `ctx`'s user may see: their own, in the current team. */
const ownedBy = (ctx: TeamContext) => ({ teamId: ctx.team.id, userId: ctx.user.id });

/** The `where` of the caller's chat `chatId` (no row matches another user's or another team's chat). */
export const ownChat = (ctx: TeamContext, chatId: string): Prisma.ChatWhereInput => ({ id: chatId, ...ownedBy(ctx) });

/** POST /api/chats: optionally, the project the new chat starts in. */
export const createChatSchema = z.object({ projectId: idField.optional() }).strict();

/**
 * A stored empty chat (POST /api/chats): the member's own default model when they chose one, and the
 * tools their new chats start with (their last choice, else the team's defaults). In a project (one
 * the member may file chats in, else 404), the project's default model and tools when it has them.
 */
export async function createChat(ctx: TeamContext, opts: { projectId?: string } = {}): Promise<{ id: string }> {
  const project = opts.projectId ? await fileableProject(ctx, opts.projectId) : null;
  const toolSelection = project?.toolSelection ?? (await newChatSelection(ctx));
  const prisma = await db();
  const modelId = project?.defaultModelId ?? (await personalModelOf(ctx));
  return prisma.chat.create({ data: { ...ownedBy(ctx), modelId, toolSelection, projectId: project?.id ?? null }, select: { id: true } });
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
  await updateChat(ctx, chatId, { title });
}

/**
 * Renames, pins or archives the caller's chat (404 for any other). Archiving unpins; pinning an
 * archived chat brings it back. None of these changes `updatedAt` (the chat's last activity) as it was.
 */
export async function updateChat(ctx: TeamContext, chatId: string, change: ChatUpdate): Promise<void> {
  const prisma = await db();
  const chat = await prisma.chat.findFirst({ where: ownChat(ctx, chatId), select: { updatedAt: true } });
  if (!chat) throw NotFound("No such chat.");
  const now = new Date();
  const data: Prisma.ChatUncheckedUpdateManyInput = {};
  if (change.title !== undefined) data.title = change.title;
  if (change.pinned !== undefined) data.pinnedAt = change.pinned ? now : null;
  if (change.archived !== undefined) data.archivedAt = change.archived ? now : null;
  if (change.archived) data.pinnedAt = null;
  if (change.pinned) data.archivedAt = null;
  // Into a project the member may file chats in (404 otherwise), or out of any (null).
  if (change.projectId !== undefined) data.projectId = change.projectId === null ? null : (await fileableProject(ctx, change.projectId)).id;
  data.updatedAt = chat.updatedAt;
  const res = await prisma.chat.updateMany({ where: ownChat(ctx, chatId), data });
  if (res.count !== 1) throw NotFound("No such chat.");
}

export async function deleteChat(ctx: TeamContext, chatId: string): Promise<void> {
  const prisma = await db();
  const res = await prisma.chat.deleteMany({ where: ownChat(ctx, chatId) });
  if (res.count !== 1) throw NotFound("No such chat.");
}
