// What each person wants to hear by email (Profile -> Notifications): when a call waits for their
// approval (on by default; only admins are ever asked), and when an admin decided a call of their own
// that waited for one (off by default). No row: the defaults. Each person changes only their own.
import { z } from "zod";
import { db } from "../db/client";

export type NotificationChoices = { approvalRequests: boolean; ownCallsDecided: boolean };

export const DEFAULT_CHOICES: NotificationChoices = { approvalRequests: true, ownCallsDecided: false };

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false")])
  .optional()
  .transform((v) => v === "on" || v === "true");

/** A form's checkboxes: a box left unticked is absent (off); the form names itself, so a stray form changes nothing. */
export const choicesSchema = z.object({ form: z.literal("notifications", "Invalid request."), approvalRequests: checkbox, ownCallsDecided: checkbox });

export async function notificationChoices(userId: string): Promise<NotificationChoices> {
  const prisma = await db();
  const row = await prisma.notificationPreference.findUnique({ where: { userId }, select: { approvalRequests: true, ownCallsDecided: true } });
  return row ?? DEFAULT_CHOICES;
}

export async function setNotificationChoices(userId: string, choices: NotificationChoices): Promise<void> {
  const prisma = await db();
  await prisma.notificationPreference.upsert({ where: { userId }, create: { userId, ...choices }, update: choices });
}
