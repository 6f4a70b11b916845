// Retention per team: an admin keeps chats for N days (1 to 3650) or for ever (null, the default).
// A chat untouched for longer is deleted with everything in it: its messages, blocks, citations,
// attachments and shares go by the database's cascades (prisma/schema.prisma), so nothing is left
// behind; usage records stay (their link to the message is cleared). A chat whose turn is running is
// kept until it ends. Uploads never sent with a message are deleted after an hour. The sweep runs at
// start-up and then every 15 minutes (lib/startup.ts); each team's change is an audit event, and so is
// each sweep that deletes a team's chats (`retention.sweep`: how many, kept for how many days, the
// cut-off), with a log line.
import { z } from "zod";
import { audit, audited } from "../audit";
import { UNSENT_MS } from "../attachments/store";
import { db } from "../db/client";
import type { PrismaClient } from "../db/generated/client";
import type { TeamContext } from "../teams/team-context";

export const retentionSchema = z.object({ days: z.number().int().min(1, "At least 1 day.").max(3650, "At most 3650 days.").nullable() }).strict();

const DAY_MS = 86_400_000;
export const RETENTION_SWEEP_MS = 15 * 60 * 1000;

export async function setRetention(ctx: TeamContext, days: number | null): Promise<void> {
  retentionSchema.parse({ days });
  await audited(ctx, (tx) => tx.team.update({ where: { id: ctx.team.id }, data: { retentionDays: days } }), {
    action: "team.retention",
    targetType: "team",
    targetId: ctx.team.id,
    data: { days },
  });
}

export async function retentionOf(teamId: string): Promise<number | null> {
  const prisma = await db();
  return (await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { retentionDays: true } })).retentionDays;
}

/** Deletes what retention says is due at `now`; how many chats and unsent uploads went. */
export async function sweepRetention(prisma: PrismaClient, now = new Date()): Promise<{ chats: number; uploads: number }> {
  const teams = await prisma.team.findMany({ where: { retentionDays: { not: null } }, select: { id: true, retentionDays: true } });
  let chats = 0;
  for (const t of teams) {
    const before = new Date(now.getTime() - t.retentionDays! * DAY_MS);
    const deleted = await prisma.$transaction(async (tx) => {
      const { count } = await tx.chat.deleteMany({ where: { teamId: t.id, updatedAt: { lt: before }, activeStreamId: null } });
      if (count) {
        await audit(tx, {
          teamId: t.id,
          actorId: null,
          action: "retention.sweep",
          targetType: "team",
          targetId: t.id,
          data: { chats: count, days: t.retentionDays!, before: before.toISOString() },
        });
      }
      return count;
    });
    if (deleted)
      console.log(
        `[retention] team ${t.id}: deleted ${deleted} chat${deleted === 1 ? "" : "s"} untouched for ${t.retentionDays} days (before ${before.toISOString()})`,
      );
    chats += deleted;
  }
  const uploads = (await prisma.attachment.deleteMany({ where: { messageId: null, chatId: null, createdAt: { lt: new Date(now.getTime() - UNSENT_MS) } } }))
    .count;
  return { chats, uploads };
}
