// The links an admin makes, sent by email when email is on: an invite to the address the admin typed
// (the email names the team and who invited), and a password reset link to the member's own address.
// The link is made first and stays usable when sending fails: the admin is told why and can hand it
// over instead. Sending is audited with the link it carried.
import { audit } from "../audit";
import { db } from "../db/client";
import { EmailError, emailEnabled, sendMail } from "../email/mailer";
import { inviteMail, resetMail } from "../email/messages";
import type { TeamContext } from "./team-context";

/** Whether it was sent; when not, why (a sentence for the admin). */
export type Sent = { sent: true } | { sent: false; reason: string };

async function send(ctx: TeamContext, mail: Parameters<typeof sendMail>[0], event: { action: string; targetType: string; targetId: string }): Promise<Sent> {
  if (!emailEnabled()) return { sent: false, reason: "Email is off on this server." };
  try {
    await sendMail(mail);
  } catch (err) {
    if (err instanceof EmailError) return { sent: false, reason: err.message };
    throw err;
  }
  await audit(await db(), { teamId: ctx.team.id, actorId: ctx.user.id, ...event });
  return { sent: true };
}

export async function emailInvite(
  ctx: TeamContext,
  invite: { id: string; email: string; role: "admin" | "member"; expiresAt: Date },
  url: string,
): Promise<Sent> {
  const mail = inviteMail({ to: invite.email, teamName: ctx.team.name, inviterName: ctx.user.name, role: invite.role, url, expiresAt: invite.expiresAt });
  return send(ctx, mail, { action: "invite.email", targetType: "invite", targetId: invite.id });
}

export async function emailResetLink(ctx: TeamContext, reset: { userId: string; email: string; name: string; expiresAt: Date }, url: string): Promise<Sent> {
  const mail = resetMail({ to: reset.email, name: reset.name, url, expiresAt: reset.expiresAt, adminName: ctx.user.name });
  return send(ctx, mail, { action: "password.reset-email", targetType: "user", targetId: reset.userId });
}
