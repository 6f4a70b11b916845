// The approval email channel (a NotificationChannel, in channels.ts): on approval.requested each approver
// (approvers.ts) gets an email within seconds, with the tool, the masked arguments, who asked, which chat,
// and a decision link of their own (approval-links.ts). So a busy team does not flood anyone, a person's
// first request goes at once and further ones within DIGEST_WINDOW_MS of their last email are gathered
// into one digest, sent when the window ends (the sweep). On approval.decided a request not sent yet is
// dropped, and a member who asked for it hears that their call was decided. The queue is ApprovalEmail:
// an event delivered again adds nothing (one row per event and person); a row is held by one instance
// while it sends, and a failed send is tried again with backoff. Without SMTP the channel does nothing.
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { emailEnabled, sendMail } from "../email/mailer";
import { appBaseUrl, createApprovalLink, oneClickLinks, pruneApprovalLinks } from "./approval-links";
import { approvalMail, decidedMail, type MailedRequest } from "./approval-mail-text";
import { maskSecrets } from "./mask";
import { approvalRecipients } from "./approvers";
import type { ApprovalDecided, ApprovalRequested, NotificationChannel, StoredTeamEvent } from "./team-events";

export const DIGEST_WINDOW_MS = 3 * 60_000;
export const SWEEP_MS = 5_000;
const HOLD_MS = 2 * 60_000;
const MAX_ATTEMPTS = 8;
const PRUNE_EVERY_MS = 60 * 60_000;
const KEEP_DAYS = 7;

type Stored = Omit<MailedRequest, "url"> & { deadline: string | null };

async function enqueue(e: StoredTeamEvent & ApprovalRequested): Promise<string[]> {
  const recipients = await approvalRecipients(e.teamId, e.tool.serverId);
  if (!recipients.length) return [];
  const prisma = await db();
  const team = await prisma.team.findUnique({ where: { id: e.teamId }, select: { name: true } });
  const request: Stored = {
    teamName: team?.name ?? "your team",
    tool: { label: e.tool.label },
    member: { name: e.member.name, email: e.member.email },
    chatTitle: e.chatTitle,
    input: maskSecrets(e.input),
    rule: e.rule,
    deadline: e.deadline,
  };
  await prisma.approvalEmail.createMany({
    data: recipients.map((r) => ({ eventId: e.id, userId: r.id, teamId: e.teamId, approvalId: e.approvalId, request: request as Prisma.InputJsonValue })),
    skipDuplicates: true,
  });
  return recipients.map((r) => r.id);
}

async function onDecided(e: StoredTeamEvent & ApprovalDecided): Promise<void> {
  const prisma = await db();
  const now = new Date();
  await prisma.approvalEmail.updateMany({
    where: { approvalId: e.approvalId, sentAt: null, droppedAt: null },
    data: { droppedAt: now, lastError: `decided: ${e.outcome}` },
  });
  if (e.outcome === "superseded") return;
  const chat = await prisma.chat.findUnique({
    where: { id: e.chatId },
    select: { title: true, user: { select: { id: true, name: true, email: true, notificationPreference: { select: { ownCallsDecided: true } } } } },
  });
  if (!chat?.user.notificationPreference?.ownCallsDecided || e.by?.id === chat.user.id) return;
  const block = await prisma.block.findFirst({ where: { approvalId: e.approvalId }, select: { toolName: true, extras: true } });
  const meta = (block?.extras as { toolMetadata?: { serverName?: string; toolName?: string } } | null)?.toolMetadata;
  const tool = meta?.serverName ? `${meta.serverName} · ${meta.toolName}` : (block?.toolName ?? "tool");
  try {
    await sendMail(
      decidedMail({
        to: chat.user.email,
        name: chat.user.name,
        chatTitle: chat.title ?? "Untitled chat",
        tool,
        outcome: e.outcome,
        by: e.by?.name ?? null,
        reason: e.reason,
        chatUrl: `${appBaseUrl()}/chat/${e.chatId}`,
      }),
    );
  } catch (err) {
    console.warn(`[approval-email] could not tell ${chat.user.email} of a decision:`, (err as Error).message);
  }
}

/** The channel: queues requests, drops decided ones, then sends what is due (without making the dispatcher wait for SMTP). */
export const approvalEmailChannel: NotificationChannel = {
  name: "approval-email",
  async deliver(events) {
    if (!emailEnabled()) return;
    let queued = false;
    for (const e of events) {
      if (e.kind === "approval.requested") queued = (await enqueue(e)).length > 0 || queued;
      else if (e.kind === "approval.decided") await onDecided(e);
    }
    if (queued) kickApprovalEmails();
  },
};

let running: Promise<number> | null = null;
let again = false;

/** Sends what is due now, in the background; a call while a round runs asks for one more round after it. */
export function kickApprovalEmails(): void {
  if (running) {
    again = true;
    return;
  }
  running = sendDueApprovalEmails()
    .catch((err: unknown) => {
      console.error("[approval-email] sending failed:", err);
      return 0;
    })
    .finally(() => {
      running = null;
      if (again) {
        again = false;
        kickApprovalEmails();
      }
    });
}

/** The round in progress, if any (tests and the stop wait for it). */
export const approvalEmailsSettled = () => running ?? Promise.resolve(0);

/**
 * One round: for each person with requests waiting to be sent, whose last approval email is older than
 * the digest window (or who never had one), holds their requests, drops those decided meanwhile, makes a
 * link for each and sends one email. Returns how many emails were sent.
 */
export async function sendDueApprovalEmails(now = new Date()): Promise<number> {
  if (!emailEnabled()) return 0;
  const prisma = await db();
  const pending = await prisma.approvalEmail.groupBy({
    by: ["userId"],
    where: { sentAt: null, droppedAt: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
  });
  let sent = 0;
  for (const { userId } of pending) {
    const last = await prisma.approvalEmail.aggregate({ where: { userId, sentAt: { not: null } }, _max: { sentAt: true } });
    const lastSent = last._max.sentAt;
    if (lastSent && now.getTime() - lastSent.getTime() < DIGEST_WINDOW_MS) continue;
    if (await sendTo(userId, now)) sent++;
  }
  return sent;
}

async function sendTo(userId: string, now: Date): Promise<boolean> {
  const prisma = await db();
  // A hold unique to this round: of two instances, the one whose update comes first holds every row.
  const hold = new Date(now.getTime() + HOLD_MS + Math.floor(Math.random() * 1000));
  const free = { userId, sentAt: null, droppedAt: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] };
  const held = await prisma.approvalEmail.updateMany({ where: free, data: { claimedUntil: hold } });
  if (!held.count) return false;
  const rows = await prisma.approvalEmail.findMany({ where: { userId, claimedUntil: hold, sentAt: null }, orderBy: { createdAt: "asc" } });
  const waiting = new Set(
    (
      await prisma.block.findMany({
        where: { approvalId: { in: rows.map((r) => r.approvalId) }, kind: "tool", status: "approval-requested", approvalBy: "admin" },
        select: { approvalId: true },
      })
    ).map((b) => b.approvalId),
  );
  const gone = rows.filter((r) => !waiting.has(r.approvalId));
  if (gone.length)
    await prisma.approvalEmail.updateMany({ where: { id: { in: gone.map((r) => r.id) } }, data: { droppedAt: now, lastError: "decided before it was sent" } });
  const live = rows.filter((r) => waiting.has(r.approvalId));
  if (!live.length) return false;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
  if (!user) return false;
  const requests: MailedRequest[] = [];
  const teams = new Map<string, boolean>();
  for (const r of live) {
    const stored = r.request as unknown as Stored;
    const token = await createApprovalLink(
      prisma,
      { teamId: r.teamId, approvalId: r.approvalId, userId, deadline: stored.deadline ? new Date(stored.deadline) : null },
      now,
    );
    requests.push({ ...stored, url: `${appBaseUrl()}/approvals/link/${token}` });
    if (!teams.has(r.teamId)) teams.set(r.teamId, await oneClickLinks(r.teamId));
  }
  const oneClick = [...teams.values()].some(Boolean);
  const linkNote = oneClick
    ? "Each link decides its call once, within 24 hours (or the call's time limit). Your team lets these links decide without signing in: do not forward this email."
    : "Each link decides its call once, within 24 hours (or the call's time limit), after you sign in as yourself.";
  const ids = live.map((r) => r.id);
  try {
    await sendMail(approvalMail({ to: user.email, name: user.name, requests, inboxUrl: `${appBaseUrl()}/admin/approvals`, linkNote }));
  } catch (err) {
    const attempts = Math.max(...live.map((r) => r.attempts)) + 1;
    const giveUp = attempts >= MAX_ATTEMPTS;
    const retryAt = new Date(Date.now() + Math.min(10 * 60_000, 5_000 * 2 ** (attempts - 1)));
    await prisma.approvalEmail.updateMany({
      where: { id: { in: ids } },
      data: { attempts, lastError: (err as Error).message.slice(0, 500), claimedUntil: retryAt, ...(giveUp ? { droppedAt: new Date() } : {}) },
    });
    console.warn(`[approval-email] could not email ${user.email}${giveUp ? " (given up)" : ""}:`, (err as Error).message);
    return false;
  }
  await prisma.approvalEmail.updateMany({ where: { id: { in: ids } }, data: { sentAt: new Date(), claimedUntil: null } });
  return true;
}

/**
 * The sweep that sends digests when their window ends and retries failed sends (every SWEEP_MS on every
 * instance), and drops links and queued emails of no more use (hourly). Its stop waits for the round in progress.
 */
export function startApprovalEmailSweep(): () => Promise<void> {
  let lastPrune = 0;
  const timer = setInterval(() => {
    if (emailEnabled()) kickApprovalEmails();
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      void pruneApprovalMail().catch((err: unknown) => console.warn("[approval-email] prune failed:", (err as Error).message));
    }
  }, SWEEP_MS).unref();
  return async () => {
    clearInterval(timer);
    await approvalEmailsSettled();
  };
}

async function pruneApprovalMail(now = new Date()): Promise<void> {
  await pruneApprovalLinks(now);
  const prisma = await db();
  const before = new Date(now.getTime() - KEEP_DAYS * 24 * 60 * 60_000);
  await prisma.approvalEmail.deleteMany({ where: { createdAt: { lt: before }, OR: [{ sentAt: { not: null } }, { droppedAt: { not: null } }] } });
}
