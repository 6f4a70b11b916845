// The links in approval emails: a random token (only its sha256 is stored) that decides one call, as the
// one approver it was sent to, once, until it expires (24 hours, or the call's own deadline if sooner).
// `checkApprovalLink` says what a token may do, in the order a person should hear it: not a link at all
// (404), sent to someone else (403), used (410), expired (410), the call decided already (409). Claiming
// it is one conditional update, so two clicks racing for one link cannot both decide.
import { publicUrl } from "../config";
import { db } from "../db/client";
import type { Prisma, PrismaClient } from "../db/generated/client";
import { AppError } from "../errors";
import { linkTokenHash, newLinkToken } from "../security/link-tokens";

export const LINK_TTL_MS = 24 * 60 * 60_000;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type Client = PrismaClient | Prisma.TransactionClient;

/** Where links point: PARLEY_URL, else this server on localhost (set PARLEY_URL so mail reaches people elsewhere). */
export function appBaseUrl(): string {
  return publicUrl() ?? `http://localhost:${process.env.PORT || "3000"}`;
}

export const linkUrl = (token: string) => `${appBaseUrl()}/approvals/link/${token}`;

/** Makes one approver's link to one call; returns the token (only its hash is kept). */
export async function createApprovalLink(
  prisma: Client,
  link: { teamId: string; approvalId: string; userId: string; deadline?: Date | null },
  now = new Date(),
): Promise<string> {
  const token = newLinkToken(32);
  const ttl = new Date(now.getTime() + LINK_TTL_MS);
  const expiresAt = link.deadline && link.deadline < ttl ? link.deadline : ttl;
  await prisma.approvalLink.create({
    data: { tokenHash: linkTokenHash(token), teamId: link.teamId, approvalId: link.approvalId, userId: link.userId, expiresAt },
  });
  return token;
}

export type LinkRefusal = "invalid" | "foreign" | "not-admin" | "used" | "expired" | "decided";

const REFUSALS: Record<LinkRefusal, { status: number; message: string }> = {
  invalid: { status: 404, message: "This approval link is not valid. Open the Approvals inbox in Parley instead." },
  foreign: { status: 403, message: "This approval link was sent to another admin. Sign in as them, or decide in the Approvals inbox." },
  "not-admin": { status: 403, message: "This approval link was sent to an admin of the team, and you are not one any more." },
  used: { status: 410, message: "This approval link was used already. Each link decides once." },
  expired: { status: 410, message: "This approval link has expired. Decide in the Approvals inbox in Parley." },
  decided: { status: 409, message: "This tool call was already decided (by another admin, its time limit, or the member moving on)." },
};

export function linkRefusal(reason: LinkRefusal): AppError {
  const r = REFUSALS[reason];
  return new AppError(`ApprovalLink_${reason}`, r.status, r.message);
}

export type UsableLink = { id: string; teamId: string; approvalId: string; userId: string; expiresAt: Date; oneClick: boolean };

export type LinkCheck = { ok: true; link: UsableLink } | { ok: false; reason: LinkRefusal; error: AppError };

const refuse = (reason: LinkRefusal): LinkCheck => ({ ok: false, reason, error: linkRefusal(reason) });

/**
 * What this token may do for this caller (the signed-in user's id, or null). Without one-click links
 * the caller must be the approver; with them the link alone decides, as its approver. Either way the
 * approver must still be an admin of the team, and the call still waiting for an admin.
 */
export async function checkApprovalLink(token: string, callerId: string | null, now = new Date()): Promise<LinkCheck> {
  if (!TOKEN.test(token)) return refuse("invalid");
  const prisma = await db();
  const row = await prisma.approvalLink.findUnique({
    where: { tokenHash: linkTokenHash(token) },
    include: { team: { select: { oneClickApprovalLinks: true } } },
  });
  if (!row) return refuse("invalid");
  const oneClick = row.team.oneClickApprovalLinks;
  if (!oneClick && callerId === null) return { ok: false, reason: "foreign", error: new AppError("Unauthorized", 401, "Sign in to decide from this link.") };
  if (!oneClick && callerId !== row.userId) return refuse("foreign");
  const membership = await prisma.membership.findUnique({ where: { teamId_userId: { teamId: row.teamId, userId: row.userId } }, select: { role: true } });
  if (membership?.role !== "admin") return refuse("not-admin");
  if (row.usedAt) return refuse("used");
  if (row.expiresAt <= now) return refuse("expired");
  const waiting = await prisma.block.count({
    where: { approvalId: row.approvalId, kind: "tool", status: "approval-requested", approvalBy: "admin", message: { chat: { teamId: row.teamId } } },
  });
  if (!waiting) return refuse("decided");
  return { ok: true, link: { id: row.id, teamId: row.teamId, approvalId: row.approvalId, userId: row.userId, expiresAt: row.expiresAt, oneClick } };
}

/** Takes the link for one decision: false when another use took it first. */
export async function claimApprovalLink(linkId: string, now = new Date()): Promise<boolean> {
  const prisma = await db();
  const res = await prisma.approvalLink.updateMany({ where: { id: linkId, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
  return res.count === 1;
}

/** Gives the link back when its decision was refused before anything was stored (an edited input that does not fit). */
export async function releaseApprovalLink(linkId: string, claimedAt: Date): Promise<void> {
  const prisma = await db();
  await prisma.approvalLink.updateMany({ where: { id: linkId, usedAt: claimedAt }, data: { usedAt: null } });
}

/** Whether links of this team decide without signing in. */
export async function oneClickLinks(teamId: string): Promise<boolean> {
  const prisma = await db();
  const team = await prisma.team.findUnique({ where: { id: teamId }, select: { oneClickApprovalLinks: true } });
  return team?.oneClickApprovalLinks ?? false;
}

/** Expired and used links older than a day are of no use to anyone. */
export async function pruneApprovalLinks(now = new Date()): Promise<number> {
  const prisma = await db();
  const before = new Date(now.getTime() - 24 * 60 * 60_000);
  const res = await prisma.approvalLink.deleteMany({ where: { OR: [{ expiresAt: { lt: before } }, { usedAt: { lt: before } }] } });
  return res.count;
}
