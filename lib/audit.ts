// Audit events: who did what, to what, when. Callers pass details without secrets.
import type { Prisma, PrismaClient } from "./db/generated/client";

export type AuditInput = {
  teamId?: string | null;
  actorId?: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  data?: Prisma.InputJsonValue;
};

type Writer = Pick<PrismaClient, "auditEvent">;

export async function audit(prisma: Writer, event: AuditInput): Promise<void> {
  await prisma.auditEvent.create({ data: { ...event } });
}
