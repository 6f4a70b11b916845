// Sends the queued webhook deliveries (webhook-channel.ts queues them): each webhook's deliveries go
// one at a time in the order of their events; a failed one (no answer in 10 s, a refused address, a
// status other than 2xx) is tried again after 15 s, 30 s, 1 min, … (at most an hour apart) and given up
// ("failed") after MAX_ATTEMPTS tries, and the next one goes. An instance holds a delivery while it sends
// (claimedUntil), so two instances never send it at the same time; one that dies mid-send leaves it to
// another after CLAIM_MS (receivers de-duplicate by Parley-Event-Id). Sending runs beside turns and
// decisions, never in them: a dead receiver slows nothing but its own deliveries.
import { config } from "../config";
import { db } from "../db/client";
import { outboundFetch } from "../security/outbound-fetch";
import { openSecretFor } from "../security/stored-secrets";
import { storedEvent } from "./events";
import { webhookBody, webhookHeaders, type WebhookFormat } from "./webhook-format";

export const SEND_INTERVAL_MS = 1_000;
const SEND_TIMEOUT_MS = 10_000;
const CLAIM_MS = 30_000;
export const MAX_ATTEMPTS = 10;
const MAX_BACKOFF_MS = 60 * 60_000;
/** Webhooks being sent to at once by one instance. */
const PARALLEL = 8;

export type SenderOptions = {
  /** The first retry's delay, doubled after each failure (15 s by default). */
  retryBaseMs?: number;
  fetch?: typeof fetch;
};

function retryDelay(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/** What went wrong with a request that got no answer, as the admin reads it. */
function failureText(err: unknown): string {
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer in ${SEND_TIMEOUT_MS / 1000} s`;
  return (e.cause?.message || e.message || String(err)).slice(0, 300);
}

/** Sends one claimed delivery and records how it went (a send cut short by `stop` is only let go). */
async function sendOne(id: string, opts: SenderOptions, stop: AbortSignal): Promise<void> {
  const prisma = await db();
  const d = await prisma.webhookDelivery.findUnique({ where: { id }, include: { webhook: true, event: true } });
  if (!d) return;
  const event = storedEvent(d.event);
  const attempts = d.attempts + 1;
  let status: number | null = null;
  let error: string | null = null;
  try {
    const secret = openSecretFor(d.webhook.secretEnc, d.webhook.url, d.webhook.url, "The webhook's signing secret")!;
    const body = webhookBody(d.webhook.format as WebhookFormat, event, config().publicUrl);
    const res = await (opts.fetch ?? outboundFetch())(d.webhook.url, {
      method: "POST",
      headers: webhookHeaders(secret, event, d.id, body),
      body,
      redirect: "error",
      signal: AbortSignal.any([AbortSignal.timeout(SEND_TIMEOUT_MS), stop]),
    });
    status = res.status;
    await res.body?.cancel().catch(() => {});
    if (!res.ok) error = `HTTP ${res.status}`;
  } catch (err) {
    error = failureText(err);
  }
  const now = new Date();
  if (error && stop.aborted) {
    await prisma.webhookDelivery.update({ where: { id }, data: { claimedUntil: null } });
    return;
  }
  if (!error) {
    await prisma.webhookDelivery.update({
      where: { id },
      data: { status: "delivered", attempts, lastStatus: status, lastError: null, deliveredAt: now, claimedUntil: null },
    });
    return;
  }
  const givenUp = attempts >= MAX_ATTEMPTS;
  await prisma.webhookDelivery.update({
    where: { id },
    data: {
      status: givenUp ? "failed" : "pending",
      attempts,
      lastStatus: status,
      lastError: error,
      claimedUntil: null,
      nextAttemptAt: new Date(now.getTime() + retryDelay(attempts, opts.retryBaseMs ?? 15_000)),
    },
  });
}

/** Claims the oldest pending delivery of the webhook if it is due and nobody holds it. */
async function claimNext(webhookId: string): Promise<string | null> {
  const prisma = await db();
  const now = new Date();
  const next = await prisma.webhookDelivery.findFirst({
    where: { webhookId, status: "pending" },
    orderBy: { event: { seq: "asc" } },
    select: { id: true, nextAttemptAt: true },
  });
  if (!next || next.nextAttemptAt > now) return null;
  const res = await prisma.webhookDelivery.updateMany({
    where: { id: next.id, status: "pending", OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    data: { claimedUntil: new Date(now.getTime() + CLAIM_MS) },
  });
  return res.count === 1 ? next.id : null;
}

/** Sends the webhook's due deliveries, in order, until one fails or none is due. */
async function drain(webhookId: string, opts: SenderOptions, stop: AbortSignal): Promise<void> {
  for (let id = await claimNext(webhookId); id && !stop.aborted; id = await claimNext(webhookId)) {
    await sendOne(id, opts, stop);
    const sent = await (await db()).webhookDelivery.findUnique({ where: { id }, select: { status: true } });
    if (sent?.status === "pending") return; // retried later: the ones behind it wait
  }
}

/** The webhooks (of enabled ones) with a delivery due now. */
async function dueWebhooks(): Promise<string[]> {
  const prisma = await db();
  // DISTINCT in the database (Prisma's `distinct` reads every row and de-duplicates them itself).
  const rows = await prisma.$queryRaw<{ webhookId: string }[]>`
    SELECT DISTINCT d."webhookId" FROM "WebhookDelivery" d JOIN "Webhook" w ON w."id" = d."webhookId"
    WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ${new Date().toISOString()}::timestamp AND w."enabled" LIMIT 100`;
  return rows.map((r) => r.webhookId);
}

/**
 * Every SEND_INTERVAL_MS, starts sending to each webhook with due deliveries (not waiting for slow
 * ones). Stop cuts the sends in flight short; they are sent again later, by this or another instance.
 */
export function startWebhookSender(opts: SenderOptions & { intervalMs?: number } = {}): () => Promise<void> {
  const inFlight = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> = Promise.resolve();
  const tick = () => {
    looking = (async () => {
      try {
        for (const webhookId of await dueWebhooks()) {
          if (stopped || inFlight.size >= PARALLEL || inFlight.has(webhookId)) continue;
          const run = drain(webhookId, opts, stopping.signal)
            .catch((err) => console.warn("[webhooks] sending failed:", (err as Error).message))
            .finally(() => inFlight.delete(webhookId));
          inFlight.set(webhookId, run);
        }
      } catch (err) {
        console.warn("[webhooks] could not look for deliveries:", (err as Error).message);
      }
    })().finally(() => {
      if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? SEND_INTERVAL_MS).unref();
    });
  };
  tick();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    stopping.abort();
    await looking;
    await Promise.all(inFlight.values());
  };
}
