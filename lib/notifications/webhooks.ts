// A team's outgoing webhooks, managed by its admins (Admin → Notifications): add one (a name, a URL the
// address policy allows, the events it gets, Parley's JSON or Slack-compatible), whose signing secret is
// made here, sealed for the URL's origin and shown once; turn it off and on, change its events, delete
// it; and list each with its last deliveries. Every change is audited (never with the secret).
import { z } from "zod";
import { audited } from "../audit";
import { config } from "../config";
import { db } from "../db/client";
import { Forbidden, Invalid, NotFound } from "../errors";
import { judgeUrl } from "../security/address-policy";
import { sealSecret } from "../security/stored-secrets";
import type { TeamContext } from "../teams/team-context";
import { nameField } from "../validation";
import { TEAM_EVENT_KINDS, type TeamEventKind } from "./team-events";
import { newSigningSecret, WEBHOOK_FORMATS, type WebhookFormat } from "./webhook-format";

const MAX_WEBHOOKS = 20;
const SHOWN_DELIVERIES = 10;

/** The kinds ticked in a form (checkboxes named "events", or a list). */
const eventsField = z.preprocess(
  (v) => (Array.isArray(v) ? v : typeof v === "string" ? [v] : []),
  z.array(z.enum(TEAM_EVENT_KINDS as [TeamEventKind, ...TeamEventKind[]])).min(1, "Choose at least one event."),
);

const urlField = z
  .string()
  .trim()
  .min(1, "Enter the webhook's URL.")
  .max(2000, "At most 2000 characters.")
  .superRefine((s, ctx) => {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      return void ctx.addIssue({ code: "custom", message: "Enter a full URL, such as https://hooks.example.com/parley." });
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return void ctx.addIssue({ code: "custom", message: "Use an http or https URL." });
    if (url.username || url.password) return void ctx.addIssue({ code: "custom", message: "Leave user names and passwords out of the URL." });
    const verdict = judgeUrl(s, config().PARLEY_ALLOW_PRIVATE_URLS);
    if (!verdict.ok) ctx.addIssue({ code: "custom", message: verdict.reason });
  });

export const webhookSchema = z.object({
  name: nameField,
  url: urlField,
  format: z.enum(WEBHOOK_FORMATS, { message: "Choose a format." }),
  events: eventsField,
});
export type WebhookInput = z.input<typeof webhookSchema>;

export const webhookEventsSchema = z.object({ events: eventsField });

export type WebhookDeliveryView = {
  id: string;
  kind: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
};

export type WebhookView = {
  id: string;
  name: string;
  url: string;
  format: WebhookFormat;
  events: TeamEventKind[];
  enabled: boolean;
  createdAt: string;
  deliveries: WebhookDeliveryView[];
};

function requireAdmin(ctx: TeamContext): void {
  if (ctx.team.role !== "admin") throw Forbidden();
}

/** The team's webhooks, newest first, each with its last deliveries (newest first). */
export async function listWebhooks(ctx: TeamContext): Promise<WebhookView[]> {
  requireAdmin(ctx);
  const prisma = await db();
  const hooks = await prisma.webhook.findMany({
    where: { teamId: ctx.team.id },
    orderBy: { createdAt: "desc" },
    include: { deliveries: { orderBy: { event: { seq: "desc" } }, take: SHOWN_DELIVERIES, include: { event: { select: { kind: true } } } } },
  });
  return hooks.map((h) => ({
    id: h.id,
    name: h.name,
    url: h.url,
    format: h.format as WebhookFormat,
    events: h.events.split(" ").filter(Boolean) as TeamEventKind[],
    enabled: h.enabled,
    createdAt: h.createdAt.toISOString(),
    deliveries: h.deliveries.map((d) => ({
      id: d.id,
      kind: d.event.kind,
      status: d.status as WebhookDeliveryView["status"],
      attempts: d.attempts,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      createdAt: d.createdAt.toISOString(),
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
      nextAttemptAt: d.status === "pending" ? d.nextAttemptAt.toISOString() : null,
    })),
  }));
}

/** Adds a webhook; returns its id and its signing secret, which is never shown again. */
/** `input`: as a form sends it, checked here (WebhookInput). */
export async function createWebhook(ctx: TeamContext, input: WebhookInput | Record<string, unknown>): Promise<{ id: string; secret: string }> {
  requireAdmin(ctx);
  const v = webhookSchema.parse(input);
  const prisma = await db();
  if ((await prisma.webhook.count({ where: { teamId: ctx.team.id } })) >= MAX_WEBHOOKS) {
    throw Invalid(`A team has at most ${MAX_WEBHOOKS} webhooks. Delete one first.`);
  }
  const secret = newSigningSecret();
  const hook = await audited(
    ctx,
    (tx) =>
      tx.webhook.create({
        data: {
          teamId: ctx.team.id,
          name: v.name,
          url: v.url,
          format: v.format,
          events: v.events.join(" "),
          secretEnc: sealSecret(secret, v.url),
          createdById: ctx.user.id,
        },
      }),
    (h) => ({ action: "webhook.create", targetType: "webhook", targetId: h.id, data: { name: v.name, url: v.url, format: v.format, events: v.events } }),
  );
  return { id: hook.id, secret };
}

async function ownWebhook(ctx: TeamContext, id: string) {
  requireAdmin(ctx);
  const hook = await (await db()).webhook.findFirst({ where: { id, teamId: ctx.team.id } });
  if (!hook) throw NotFound("No such webhook in your team.");
  return hook;
}

/** Changes which events the webhook gets. */
export async function setWebhookEvents(ctx: TeamContext, id: string, events: unknown): Promise<void> {
  await ownWebhook(ctx, id);
  const v = webhookEventsSchema.parse({ events });
  await audited(ctx, (tx) => tx.webhook.update({ where: { id }, data: { events: v.events.join(" ") } }), {
    action: "webhook.update",
    targetType: "webhook",
    targetId: id,
    data: { events: v.events },
  });
}

/** Turns the webhook off (nothing is queued or sent for it) or on again. */
export async function setWebhookEnabled(ctx: TeamContext, id: string, enabled: boolean): Promise<void> {
  await ownWebhook(ctx, id);
  await audited(ctx, (tx) => tx.webhook.update({ where: { id }, data: { enabled } }), {
    action: enabled ? "webhook.enable" : "webhook.disable",
    targetType: "webhook",
    targetId: id,
  });
}

/** Deletes the webhook with its deliveries. */
export async function deleteWebhook(ctx: TeamContext, id: string): Promise<void> {
  const hook = await ownWebhook(ctx, id);
  await audited(ctx, (tx) => tx.webhook.delete({ where: { id } }), {
    action: "webhook.delete",
    targetType: "webhook",
    targetId: id,
    data: { name: hook.name, url: hook.url },
  });
}
