// The branches of a chat. Every message follows a parent (the chat's first message has none), so the
// messages form a tree; messages with the same parent are versions of one another: the edits of a
// question, the answers to it (regenerated). The chat shows one branch, a path from a first message
// to the newest, whose messages are marked `onBranch`: what the page lists, what older pages follow,
// and what the model reads. Since a child is always written after its parent, the branch in `seq`
// order is that path. A new version takes the branch from its old version on; switching to another
// version takes the branch down that version to its newest message.
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { Conflict, Invalid, NotFound } from "../errors";

type Client = PrismaClient | Prisma.TransactionClient;

/** A message's place among its versions: 1-based index and how many there are. */
export type Versions = { index: number; count: number };

/** The newest message of the chat's branch: the one a new question follows. */
export async function branchTip(client: Client, chatId: string) {
  return client.message.findFirst({ where: { chatId, onBranch: true }, orderBy: { seq: "desc" }, select: { id: true, role: true, seq: true, status: true } });
}

/** A message of the chat's branch with the given role, or 404 (unknown ids, other chats' messages, old branches). */
export async function branchMessage(client: Client, chatId: string, id: string, role: "user" | "assistant") {
  const message = await client.message.findFirst({
    where: { id, chatId, onBranch: true, role },
    select: { id: true, seq: true, parentId: true, status: true },
  });
  if (!message) throw NotFound(role === "user" ? "No such message in this chat." : "No such answer in this chat.");
  return message;
}

/** Takes a message and everything after it off the branch (a new version of it follows). */
export async function leaveBranchFrom(tx: Client, chatId: string, seq: number): Promise<void> {
  await tx.message.updateMany({ where: { chatId, onBranch: true, seq: { gte: seq } }, data: { onBranch: false } });
}

/** The versions of messages that have more than one, by message id. */
export async function versionsOf(chatId: string, messages: { id: string; parentId: string | null }[]): Promise<Map<string, Versions>> {
  const parents = [...new Set(messages.flatMap((m) => (m.parentId ? [m.parentId] : [])))];
  const hasFirst = messages.some((m) => m.parentId === null);
  const out = new Map<string, Versions>();
  if (!messages.length) return out;
  const prisma = await db();
  const siblings = await prisma.message.findMany({
    where: { chatId, OR: [{ parentId: { in: parents } }, ...(hasFirst ? [{ parentId: null }] : [])] },
    select: { id: true, parentId: true },
    orderBy: { seq: "asc" },
  });
  const groups = new Map<string | null, string[]>();
  for (const s of siblings) groups.set(s.parentId, [...(groups.get(s.parentId) ?? []), s.id]);
  for (const m of messages) {
    const group = groups.get(m.parentId) ?? [];
    if (group.length > 1) out.set(m.id, { index: group.indexOf(m.id) + 1, count: group.length });
  }
  return out;
}

/**
 * Puts the previous or next version of a message of the branch on the branch, with its newest
 * descendants; returns how many messages the branch now has from that version on. Runs inside the
 * caller's transaction (which ends pending calls of the branch it leaves first).
 */
export async function switchBranch(
  tx: Client,
  chatId: string,
  messageId: string,
  direction: "previous" | "next",
): Promise<{ versionId: string; length: number }> {
  const message = await tx.message.findFirst({ where: { id: messageId, chatId, onBranch: true }, select: { id: true, seq: true, parentId: true } });
  if (!message) throw NotFound("No such message in this chat.");
  const versions = await tx.message.findMany({ where: { chatId, parentId: message.parentId }, select: { id: true, seq: true }, orderBy: { seq: "asc" } });
  const target = versions[versions.findIndex((v) => v.id === message.id) + (direction === "next" ? 1 : -1)];
  if (!target) throw Invalid(`This message has no ${direction} version.`);
  // The version's newest descendant, and the path down to it.
  const later = await tx.message.findMany({ where: { chatId, seq: { gt: target.seq } }, select: { id: true, parentId: true }, orderBy: { seq: "asc" } });
  const parentOf = new Map<string, string>();
  let newest = target.id;
  for (const m of later) {
    if (m.parentId && (m.parentId === target.id || parentOf.has(m.parentId))) {
      parentOf.set(m.id, m.parentId);
      newest = m.id;
    }
  }
  const path = [newest];
  while (path[path.length - 1] !== target.id) path.push(parentOf.get(path[path.length - 1])!);
  await leaveBranchFrom(tx, chatId, message.seq);
  const moved = await tx.message.updateMany({ where: { id: { in: path }, chatId }, data: { onBranch: true } });
  if (moved.count !== path.length) throw Conflict("The chat changed meanwhile. Reload it and try again.");
  return { versionId: target.id, length: path.length };
}
