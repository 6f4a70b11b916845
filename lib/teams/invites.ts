// Invite links: the link carries a random token; only its sha256 is stored. An admin hands it over, or
// has it emailed (link-emails.ts: the address is kept, to show in the open invites).
// Links expire and work once; accepting one is a single conditional update, so two people racing
// for one link cannot both join. Joining with a new account claims the link before the account is
// made, so the people who lose such a race are told so (409) and leave no account behind.
import { z } from "zod";
import { db } from "../db/client";
import type { Prisma, TeamRole } from "../db/generated/client";
import { recordTeamEvent } from "../notifications/events";
import { AppError, Conflict, NotFound } from "../errors";
import { audited } from "../audit";
import { emailField } from "../validation";
import type { TeamContext } from "./team-context";
import { linkTokenHash, newLinkToken } from "../security/link-tokens";

const INVITE_TTL_CHOICES = [1, 7, 30] as const; // days

export const createInviteSchema = z.object({
  role: z.enum(["member", "admin"], { error: "Choose member or admin." }),
  days: z.coerce.number().refine((d) => (INVITE_TTL_CHOICES as readonly number[]).includes(d), "Choose 1, 7 or 30 days."),
  /** Whom to email the link to; blank: the admin hands the link over. */
  email: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), emailField.optional()),
});

const hash = linkTokenHash;

export type InviteStatus =
  | { ok: true; teamId: string; teamName: string; role: TeamRole; expiresAt: Date }
  | { ok: false; reason: "invalid" | "used" | "expired" | "revoked"; message: string };

const MESSAGES = {
  invalid: "This invite link is not valid. Ask an admin of the team for a new one.",
  used: "This invite link has already been used. Ask an admin of the team for a new one.",
  expired: "This invite link has expired. Ask an admin of the team for a new one.",
  revoked: "This invite link was revoked. Ask an admin of the team for a new one.",
} as const;

const fail = (reason: keyof typeof MESSAGES): InviteStatus => ({ ok: false, reason, message: MESSAGES[reason] });
const unusable = (status: Extract<InviteStatus, { ok: false }>) =>
  new AppError(`Invite_${status.reason}`, status.reason === "invalid" ? 404 : 410, status.message);
/** Someone else's use of the link went through between our look at it and our claim. */
const raced = () => new AppError("Invite_used", 409, "Someone else has just used this invite link. Ask an admin of the team for a new one.");
/** The link's row, if it is still open now. */
const open = (token: string, now = new Date()) => ({ tokenHash: hash(token), usedAt: null, revokedAt: null, expiresAt: { gt: now } });

export async function createInvite(ctx: TeamContext, input: z.infer<typeof createInviteSchema>) {
  const token = newLinkToken();
  const invite = await audited(
    ctx,
    (tx) =>
      tx.invite.create({
        data: {
          teamId: ctx.team.id,
          tokenHash: hash(token),
          role: input.role,
          email: input.email ?? null,
          createdById: ctx.user.id,
          expiresAt: new Date(Date.now() + input.days * 86_400_000),
        },
      }),
    (invite) => ({ action: "invite.create", targetType: "invite", targetId: invite.id, data: { role: input.role, days: input.days, emailed: !!input.email } }),
  );
  return { id: invite.id, token, expiresAt: invite.expiresAt, role: invite.role, email: invite.email };
}

export async function inspectInvite(token: string): Promise<InviteStatus> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return fail("invalid");
  const prisma = await db();
  const invite = await prisma.invite.findUnique({ where: { tokenHash: hash(token) }, include: { team: true } });
  if (!invite) return fail("invalid");
  if (invite.revokedAt) return fail("revoked");
  if (invite.usedAt) return fail("used");
  if (invite.expiresAt.getTime() <= Date.now()) return fail("expired");
  return { ok: true, teamId: invite.teamId, teamName: invite.team.name, role: invite.role, expiresAt: invite.expiresAt };
}

/** The team hears that someone joined (member.joined, lib/notifications), with the membership. */
async function announceJoin(tx: Prisma.TransactionClient, teamId: string, userId: string, role: TeamRole): Promise<void> {
  const member = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, name: true, email: true } });
  await recordTeamEvent(tx, { kind: "member.joined", teamId, member, role });
}

/** Joins the invite's team. Throws a clear error for invalid, used, expired or revoked links. */
export async function acceptInvite(userId: string, token: string): Promise<{ teamId: string }> {
  const status = await inspectInvite(token);
  if (!status.ok) throw unusable(status);
  const actor = { user: { id: userId }, team: { id: status.teamId } };
  const event = { action: "invite.accept", targetType: "user", targetId: userId, data: { role: status.role } };
  return audited(
    actor,
    async (tx) => {
      const already = await tx.membership.findUnique({ where: { teamId_userId: { teamId: status.teamId, userId } } });
      if (already) throw Conflict(`You are already a member of ${status.teamName}.`);
      const claimed = await tx.invite.updateMany({ where: open(token), data: { usedAt: new Date(), usedById: userId } });
      if (claimed.count !== 1) throw raced();
      await tx.membership.create({ data: { teamId: status.teamId, userId, role: status.role } });
      await announceJoin(tx, status.teamId, userId, status.role);
      return { teamId: status.teamId };
    },
    event,
  );
}

/**
 * Joins the invite's team with a new account: claims the link, then makes the account with
 * `createAccount` (better-auth's sign-up, passed in by the caller), then the membership. Only the
 * person whose claim went through makes an account; the others get a 409. When the account cannot be
 * made (an email already taken, a weak password) the link is given back for another try.
 */
export async function joinWithNewAccount(token: string, createAccount: () => Promise<{ userId: string }>): Promise<{ teamId: string; userId: string }> {
  const status = await inspectInvite(token);
  if (!status.ok) throw unusable(status);
  const prisma = await db();
  const claimedAt = new Date();
  const claimed = await prisma.invite.updateMany({ where: open(token, claimedAt), data: { usedAt: claimedAt } });
  if (claimed.count !== 1) throw raced();
  const giveBack = () => prisma.invite.updateMany({ where: { tokenHash: hash(token), usedAt: claimedAt, usedById: null }, data: { usedAt: null } });
  let userId: string;
  try {
    ({ userId } = await createAccount());
  } catch (err) {
    await giveBack();
    throw err;
  }
  try {
    const actor = { user: { id: userId }, team: { id: status.teamId } };
    await audited(
      actor,
      async (tx) => {
        await tx.invite.updateMany({ where: { tokenHash: hash(token), usedAt: claimedAt }, data: { usedById: userId } });
        await tx.membership.create({ data: { teamId: status.teamId, userId, role: status.role } });
        await announceJoin(tx, status.teamId, userId, status.role);
      },
      { action: "invite.accept", targetType: "user", targetId: userId, data: { role: status.role } },
    );
  } catch (err) {
    // No account in no team: the new account goes (its sessions with it) and the link comes back.
    await prisma.user.delete({ where: { id: userId } }).catch(() => {});
    await giveBack();
    throw err;
  }
  return { teamId: status.teamId, userId };
}

export async function listOpenInvites(ctx: TeamContext) {
  const prisma = await db();
  return prisma.invite.findMany({
    where: { teamId: ctx.team.id, usedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, role: true, email: true, expiresAt: true, createdAt: true, createdBy: { select: { name: true } } },
    orderBy: { createdAt: "desc" },
  });
}

export async function revokeInvite(ctx: TeamContext, inviteId: string): Promise<void> {
  await audited(
    ctx,
    async (tx) => {
      const res = await tx.invite.updateMany({ where: { id: inviteId, teamId: ctx.team.id, usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
      if (res.count !== 1) throw NotFound("No open invite with this id in your team.");
    },
    { action: "invite.revoke", targetType: "invite", targetId: inviteId },
  );
}
