// Sharing a chat: its owner shares it with the whole team or with named members of the team,
// read-only or "can continue"; revoking deletes the share, and the next request of the member is
// refused (every read asks lib/sharing/access.ts, nothing is cached). Each change is an audit event.
// The "Shared with me" list is here too.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import { NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { idField } from "../validation";
import { ownedChats, sharedWithMe } from "./access";

/** POST /api/chat/<id>/shares: with a member (`userId`) or the whole team (`userId` null or absent). */
export const shareSchema = z.object({ userId: idField.nullable().optional(), canContinue: z.boolean().optional().default(false) }).strict();
export type ShareInput = z.input<typeof shareSchema>;

export type ShareView = { id: string; userId: string | null; name: string; canContinue: boolean; createdAt: string };

/** The owner's chat, or 404 (only the owner shares, lists or revokes). */
async function ownedChat(ctx: TeamContext, chatId: string) {
  const prisma = await db();
  const chat = await prisma.chat.findFirst({ where: { id: chatId, ...ownedChats(ctx) }, select: { id: true } });
  if (!chat) throw NotFound("No such chat.");
  return chat;
}

/** The chat's shares, and the members of the team it could be shared with (not the owner). */
export async function listShares(ctx: TeamContext, chatId: string): Promise<{ shares: ShareView[]; members: { id: string; name: string }[] }> {
  await ownedChat(ctx, chatId);
  const prisma = await db();
  const [rows, members] = await Promise.all([
    prisma.chatShare.findMany({ where: { chatId }, include: { user: { select: { name: true } } }, orderBy: { createdAt: "asc" } }),
    prisma.membership.findMany({
      where: { teamId: ctx.team.id, NOT: { userId: ctx.user.id } },
      select: { user: { select: { id: true, name: true } } },
      orderBy: { user: { name: "asc" } },
      take: 500,
    }),
  ]);
  return {
    shares: rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      name: r.user?.name ?? "Everyone in the team",
      canContinue: r.canContinue,
      createdAt: r.createdAt.toISOString(),
    })),
    members: members.map((m) => m.user),
  };
}

/** Shares the chat (or changes an existing share's mode); 404 for a member not in the chat's team, or oneself. */
export async function shareChat(ctx: TeamContext, chatId: string, input: ShareInput): Promise<ShareView> {
  const { userId = null, canContinue } = shareSchema.parse(input);
  await ownedChat(ctx, chatId);
  const prisma = await db();
  let name = "Everyone in the team";
  if (userId) {
    const member = await prisma.membership.findFirst({
      where: { teamId: ctx.team.id, userId, NOT: { userId: ctx.user.id } },
      include: { user: { select: { name: true } } },
    });
    if (!member) throw NotFound("No such member in this team.");
    name = member.user.name;
  }
  const share = await audited(
    ctx,
    async (tx) => {
      const existing = await tx.chatShare.findFirst({ where: { chatId, userId } });
      if (existing) return tx.chatShare.update({ where: { id: existing.id }, data: { canContinue } });
      return tx.chatShare.create({ data: { chatId, userId, canContinue, createdById: ctx.user.id } });
    },
    { action: "chat.share", targetType: "chat", targetId: chatId, data: { with: userId ?? "team", canContinue } },
  );
  return { id: share.id, userId, name, canContinue: share.canContinue, createdAt: share.createdAt.toISOString() };
}

/** Revokes a share at once; 404 unless it is a share of the caller's chat. */
export async function revokeShare(ctx: TeamContext, chatId: string, shareId: string): Promise<void> {
  await ownedChat(ctx, chatId);
  await audited(
    ctx,
    async (tx) => {
      const res = await tx.chatShare.deleteMany({ where: { id: shareId, chatId } });
      if (res.count !== 1) throw NotFound("No such share.");
    },
    { action: "chat.unshare", targetType: "chat", targetId: chatId, data: { share: shareId } },
  );
}

export type SharedChatItem = { id: string; title: string | null; owner: string; updatedAt: string; canContinue: boolean };

/** Chats others shared with the caller in the current team (and chats of projects shared with it), newest first. */
export async function listSharedWithMe(ctx: TeamContext, limit = 50): Promise<SharedChatItem[]> {
  const prisma = await db();
  const rows = await prisma.chat.findMany({
    where: { ...sharedWithMe(ctx), archivedAt: null },
    select: {
      id: true,
      title: true,
      updatedAt: true,
      user: { select: { name: true } },
      shares: { where: { OR: [{ userId: ctx.user.id }, { userId: null }] }, select: { canContinue: true } },
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(limit, 1), 200),
  });
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    owner: r.user.name,
    updatedAt: r.updatedAt.toISOString(),
    canContinue: r.shares.some((s) => s.canContinue),
  }));
}
