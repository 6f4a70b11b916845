// A member's own calls that wait for an admin of the team: what the member's open chat listens for on
// the live channel, so that it reads the stored answer again the moment an admin has decided.
import { db } from "../db/client";

/** The approval ids of `userId`'s calls in `teamId` waiting for an admin, oldest first. */
export async function waitingForAdmin(teamId: string, userId: string): Promise<string[]> {
  const prisma = await db();
  const blocks = await prisma.block.findMany({
    where: { kind: "tool", status: "approval-requested", approvalBy: "admin", message: { onBranch: true, chat: { teamId, userId } } },
    orderBy: { createdAt: "asc" },
    select: { approvalId: true },
  });
  return blocks.flatMap((b) => (b.approvalId ? [b.approvalId] : []));
}
