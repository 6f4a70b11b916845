// Password reset links, made by an admin for a member who forgot their password (the admin hands the
// link over, or has it emailed: link-emails.ts), or asked for by the person themselves by email
// (forgot-password.ts). Like an invite, the link carries a random token whose sha256
// alone is stored; it expires after RESET_TTL_HOURS and works once. Using it sets the new password
// (the same length and strength rules as everywhere) and ends every session of the member, in one
// transaction with the claim of the link. Making one and using one are audit events.
//
// Who may make one: an admin of the member's team, for someone else, and only when the member belongs
// to no team the admin does not administer (the new password would open that team too).
import { z } from "zod";
import { audited, type AuditEvent } from "../audit";
import { getAuth } from "../auth/auth";
import { db } from "../db/client";
import { emailEnabled } from "../email/mailer";
import { AppError, Forbidden, Invalid, NotFound } from "../errors";
import { passwordWeakness } from "../security/password-strength";
import { passwordField } from "../validation";
import type { TeamContext } from "./team-context";
import { linkTokenHash, newLinkToken } from "../security/link-tokens";

export const RESET_TTL_HOURS = 24;

export const createResetSchema = z.object({ membershipId: z.string().min(1).max(64) });
export const useResetSchema = z.object({ newPassword: passwordField });

const hash = linkTokenHash;

const MESSAGES = {
  invalid: "This password reset link is not valid.",
  used: "This password reset link has already been used.",
  expired: "This password reset link has expired.",
} as const;
/** Where a new link comes from: "Forgot password?" when email is on, else an admin. */
const message = (reason: keyof typeof MESSAGES) =>
  `${MESSAGES[reason]} ${emailEnabled() ? "Ask for a new one with “Forgot password?” on the sign-in page." : "Ask an admin of your team for a new one."}`;

export type ResetStatus = { ok: true; email: string; name: string; expiresAt: Date } | { ok: false; reason: keyof typeof MESSAGES; message: string };

const fail = (reason: keyof typeof MESSAGES): ResetStatus => ({ ok: false, reason, message: message(reason) });

/**
 * A new reset link for `userId` (any earlier open one is dropped: one open link per person), audited as
 * the caller says; the token is returned once.
 */
export async function issueResetLink(
  actor: Parameters<typeof audited>[0],
  link: { userId: string; teamId: string | null; createdById: string; ttlMs: number },
  event: (resetId: string) => Pick<AuditEvent, "action" | "data">,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newLinkToken();
  const reset = await audited(
    actor,
    async (tx) => {
      await tx.passwordReset.deleteMany({ where: { userId: link.userId, usedAt: null } });
      const { ttlMs, ...row } = link;
      return tx.passwordReset.create({ data: { ...row, tokenHash: hash(token), expiresAt: new Date(Date.now() + ttlMs) } });
    },
    (r) => ({ ...event(r.id), targetType: "user", targetId: link.userId }),
  );
  return { token, expiresAt: reset.expiresAt };
}

/** Makes a reset link for the member `membershipId` of the admin's team; the token is returned once. */
export async function createPasswordReset(
  ctx: TeamContext,
  membershipId: string,
): Promise<{ token: string; expiresAt: Date; name: string; email: string; userId: string }> {
  const prisma = await db();
  const member = await prisma.membership.findFirst({
    where: { id: membershipId, teamId: ctx.team.id },
    include: { user: { select: { id: true, name: true, email: true, memberships: { select: { teamId: true } } } } },
  });
  if (!member) throw NotFound("No such member in your team.");
  if (member.userId === ctx.user.id) throw Invalid("Change your own password on your profile page.");
  const administered = new Set(ctx.teams.filter((t) => t.role === "admin").map((t) => t.id));
  if (member.user.memberships.some((m) => !administered.has(m.teamId))) {
    throw Forbidden(`${member.user.name} is also in a team you are not an admin of, so only an admin of all their teams can make a reset link for them.`);
  }
  const { token, expiresAt } = await issueResetLink(
    ctx,
    { userId: member.userId, teamId: ctx.team.id, createdById: ctx.user.id, ttlMs: RESET_TTL_HOURS * 3_600_000 },
    (resetId) => ({ action: "password.reset-link", data: { resetId, hours: RESET_TTL_HOURS } }),
  );
  return { token, expiresAt, name: member.user.name, email: member.user.email, userId: member.userId };
}

export async function inspectPasswordReset(token: string): Promise<ResetStatus> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return fail("invalid");
  const prisma = await db();
  const reset = await prisma.passwordReset.findUnique({ where: { tokenHash: hash(token) }, include: { user: { select: { email: true, name: true } } } });
  if (!reset) return fail("invalid");
  if (reset.usedAt) return fail("used");
  if (reset.expiresAt.getTime() <= Date.now()) return fail("expired");
  return { ok: true, email: reset.user.email, name: reset.user.name, expiresAt: reset.expiresAt };
}

/**
 * Sets the member's new password through the link: refused (4xx) when the link is not usable or the
 * password is weak; otherwise the link is used up and every session of the member ends.
 */
export async function resetPassword(token: string, newPassword: string): Promise<void> {
  const status = await inspectPasswordReset(token);
  if (!status.ok) throw new AppError(`Reset_${status.reason}`, status.reason === "invalid" ? 404 : 410, status.message);
  const weakness = passwordWeakness(newPassword, [status.email, status.name]);
  if (weakness) throw Invalid("Choose a harder password.", { newPassword: weakness });
  const passwordHash = await (await (await getAuth()).$context).password.hash(newPassword);
  const prisma = await db();
  const reset = await prisma.passwordReset.findUniqueOrThrow({ where: { tokenHash: hash(token) } });
  await audited(
    { user: { id: reset.userId }, team: reset.teamId ? { id: reset.teamId } : undefined },
    async (tx) => {
      const claimed = await tx.passwordReset.updateMany({ where: { id: reset.id, usedAt: null, expiresAt: { gt: new Date() } }, data: { usedAt: new Date() } });
      if (claimed.count !== 1) throw new AppError("Reset_used", 410, message("used"));
      const updated = await tx.account.updateMany({ where: { userId: reset.userId, providerId: "credential" }, data: { password: passwordHash } });
      if (updated.count !== 1) throw NotFound("This account has no password to reset.");
      await tx.session.deleteMany({ where: { userId: reset.userId } });
    },
    { action: "password.reset", targetType: "user", targetId: reset.userId, data: { resetId: reset.id, createdById: reset.createdById } },
  );
}
