"use server";
// Admin → Notifications, webhooks: add one (its signing secret is shown once), change its events, turn
// it off or on, delete it. Each checks the admin role on the server first (defineAction) and acts only
// on the caller's team's webhooks.
import { idFields } from "@/lib/actions";
import { createWebhook, deleteWebhook, setWebhookEnabled, setWebhookEvents } from "@/lib/notifications/webhooks";
import { defineAction, formText } from "@/app/_server/actions";

const WEBHOOKS = { role: "admin", fields: idFields("webhookId"), revalidate: ["/admin/notifications"] } as const;

export const createWebhookAction = defineAction(WEBHOOKS, async (ctx, form) => {
  const { secret } = await createWebhook(ctx, {
    name: formText(form, "name"),
    url: formText(form, "url"),
    format: formText(form, "format"),
    events: form.getAll("events").map(String),
  });
  return { ok: true, message: "Webhook added. Copy its signing secret now: it is shown only once.", data: { secret } };
});

export const setWebhookEventsAction = defineAction(WEBHOOKS, async (ctx, form) => {
  await setWebhookEvents(ctx, formText(form, "webhookId"), form.getAll("events").map(String));
  return { ok: true, message: "Events saved." };
});

export const toggleWebhookAction = defineAction(WEBHOOKS, async (ctx, form) => {
  await setWebhookEnabled(ctx, formText(form, "webhookId"), form.get("enabled") === "true");
});

export const deleteWebhookAction = defineAction(WEBHOOKS, async (ctx, form) => {
  await deleteWebhook(ctx, formText(form, "webhookId"));
});
