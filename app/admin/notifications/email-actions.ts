"use server";
// Admin → Notifications, email: "Send test email" (to the admin's own address).
import { sendTestEmail } from "@/lib/email/smtp-check";
import { defineAction } from "@/app/_server/actions";

export const sendTestEmailAction = defineAction({ role: "admin" }, async (ctx) => sendTestEmail(ctx));
