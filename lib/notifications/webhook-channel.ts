// The webhooks' notification channel: for each event it queues one delivery per enabled webhook of the
// team that asked for that kind (WebhookDelivery, unique per webhook and event, so the dispatcher may
// hand the same events again). Sending happens in webhook-sender.ts, retried per webhook, never here.
import { db } from "../db/client";
import type { NotificationChannel, StoredTeamEvent } from "./team-events";

async function queueDeliveries(events: StoredTeamEvent[]): Promise<void> {
  if (!events.length) return;
  const prisma = await db();
  const teamIds = [...new Set(events.map((e) => e.teamId))];
  const hooks = await prisma.webhook.findMany({ where: { teamId: { in: teamIds }, enabled: true }, select: { id: true, teamId: true, events: true } });
  const rows = events.flatMap((e) =>
    hooks.filter((h) => h.teamId === e.teamId && h.events.split(" ").includes(e.kind)).map((h) => ({ webhookId: h.id, eventId: e.id })),
  );
  if (rows.length) await prisma.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
}

export const webhookChannel: NotificationChannel = { name: "webhooks", deliver: queueDeliveries };
