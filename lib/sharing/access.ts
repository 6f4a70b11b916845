// Who may do what with a chat: the one place the rule is written. Every route, action, page, stream
// resume, search and attachment fetch asks here.
//
//   see       the owner; a member the chat is shared with (by name, or the whole team); everyone in
//             the team when the chat is in a project shared with the team. Only ever in the chat's
//             own team: members of another team never see it, whatever rows exist.
//   continue  the owner (in the chat itself); a member whose share says "can continue" (in a copy of
//             their own, lib/sharing/copy.ts).
//   act       the owner only: send, approve or deny calls, stop, rename, share, delete.
//             (Admins approving calls of their team is the approvals module's business.)
//
// Anything a caller may not see is 404, never 403, so ids do not leak.
import { db } from "../db/client";
import type { Chat, Prisma } from "../db/generated/client";
import { NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";

type Caller = Pick<TeamContext, "user" | "team">;

/** The `where` of the chats `ctx` owns in its team. */
export const ownedChats = (ctx: Caller): Prisma.ChatWhereInput => ({ teamId: ctx.team.id, userId: ctx.user.id });

/** The `where` of the chats shared with `ctx` (not their own) in its team: by share, or by a shared project. */
export const sharedWithMe = (ctx: Caller): Prisma.ChatWhereInput => ({
  teamId: ctx.team.id,
  userId: { not: ctx.user.id },
  OR: [{ shares: { some: { OR: [{ userId: ctx.user.id }, { userId: null }] } } }, { project: { shared: true, teamId: ctx.team.id } }],
});

/** The `where` of every chat `ctx` may see. */
export const visibleChats = (ctx: Caller): Prisma.ChatWhereInput => ({ OR: [ownedChats(ctx), sharedWithMe(ctx)] });

export type ChatAccess = {
  chat: Chat;
  /** The caller owns the chat: they may act in it. */
  owner: boolean;
  ownerName: string;
  /** The caller may continue the chat (owner: in it; others: in their own copy). */
  canContinue: boolean;
};

/** What the caller may do with the chat; 404 when they may not see it. */
export async function chatAccess(ctx: Caller, chatId: string): Promise<ChatAccess> {
  const prisma = await db();
  const found = await prisma.chat.findFirst({
    where: { id: chatId, ...visibleChats(ctx) },
    include: { user: { select: { name: true } }, shares: { where: { OR: [{ userId: ctx.user.id }, { userId: null }] }, select: { canContinue: true } } },
  });
  if (!found) throw NotFound("No such chat.");
  const { shares, user, ...chat } = found;
  const owner = chat.userId === ctx.user.id;
  return { chat, owner, ownerName: user.name, canContinue: owner || shares.some((s) => s.canContinue) };
}

/** The chat when the caller may see it (404 otherwise). */
export async function viewableChat(ctx: Caller, chatId: string): Promise<Chat> {
  return (await chatAccess(ctx, chatId)).chat;
}

/** The `where` of the messages `ctx` may see (for reads across chats, e.g. search and attachments). */
export const visibleMessages = (ctx: Caller): Prisma.MessageWhereInput => ({ chat: visibleChats(ctx) });
