// Messages left `streaming` by a process that died become `interrupted`, keeping what was stored.
// Live turns touch their message every HEARTBEAT_MS, so on PostgreSQL (shared by several app
// processes) only messages silent for longer than STALE_MS are taken; with PGlite the data directory
// lock guarantees no other process, so every streaming message is dead.
import type { PrismaClient } from "../db/generated/client";

export const HEARTBEAT_MS = 30_000;
export const STALE_MS = 4 * HEARTBEAT_MS;

export async function markInterrupted(prisma: PrismaClient, opts: { exclusive: boolean; now?: Date }): Promise<number> {
  const now = opts.now ?? new Date();
  const where = opts.exclusive
    ? { status: "streaming" as const }
    : { status: "streaming" as const, updatedAt: { lt: new Date(now.getTime() - STALE_MS) } };
  const stale = await prisma.message.findMany({ where, select: { id: true, chatId: true } });
  if (!stale.length) return 0;
  await prisma.message.updateMany({ where: { id: { in: stale.map((m) => m.id) }, status: "streaming" }, data: { status: "interrupted", finishReason: "interrupted" } });
  await prisma.chat.updateMany({ where: { id: { in: [...new Set(stale.map((m) => m.chatId))] } }, data: { activeStreamId: null } });
  return stale.length;
}
