// The version switcher of a message ("2 / 3", Previous version / Next version): the member's own
// chat only (404 otherwise), never while a turn runs in it (409), a message of its branch only (404).
// The branch it leaves ends its waiting tool calls as superseded, as a new message would, so an old
// branch never holds a call that could still run. Answers with the branch's newest messages, from the
// version shown on (at least a page), for the page to put in place of what followed the message.
import { z } from "zod";
import { db } from "../db/client";
import { Conflict } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { supersedePending } from "../approvals/approvals";
import { switchBranch } from "../chat/branches";
import { chatOf } from "../chat/chats";
import { HISTORY_PAGE_SIZE, loadMessagePage } from "../chat/history";
import { streamRegistry } from "./stream-registry";
import { RUNNING, running } from "./turn-chat";

export const switchVersionSchema = z.object({
  messageId: z.string().min(1).max(200),
  direction: z.enum(["previous", "next"]),
});

export async function switchVersion(ctx: TeamContext, chatId: string, input: z.infer<typeof switchVersionSchema>) {
  const chat = await chatOf(ctx, chatId, {});
  if (await running(await streamRegistry(), chat)) throw Conflict(RUNNING);
  const prisma = await db();
  const { versionId, length } = await prisma.$transaction(async (tx) => {
    // The chat's row is held until the branch has moved: a turn claims it only after (or not at all).
    const held = await tx.chat.updateMany({
      where: { id: chat.id, activeStreamId: chat.activeStreamId },
      data: { activeStreamId: chat.activeStreamId, updatedAt: chat.updatedAt },
    });
    if (held.count !== 1) throw Conflict(RUNNING);
    await supersedePending(tx, ctx, chat.id);
    return switchBranch(tx, chat.id, input.messageId, input.direction);
  });
  return { versionId, ...(await loadMessagePage(chat.id, { limit: Math.max(HISTORY_PAGE_SIZE, length) })) };
}
