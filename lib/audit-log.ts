// Reading the audit log of a team, newest first, in pages.
import { db } from "./db/client";

export async function listAuditEvents(teamId: string, opts: { before?: Date; limit?: number } = {}) {
  const prisma = await db();
  return prisma.auditEvent.findMany({
    where: { teamId, ...(opts.before ? { createdAt: { lt: opts.before } } : {}) },
    include: { actor: { select: { name: true, email: true } } },
    // Joined, every event of the team would get its actor before the sort and the cut (see history.ts).
    relationLoadStrategy: "query",
    orderBy: { createdAt: "desc" },
    take: opts.limit ?? 100,
  });
}
