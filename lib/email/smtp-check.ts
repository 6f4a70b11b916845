// "Send test email" under Admin → Notifications: a message to the admin's own address (never to one
// typed in, so the button cannot send mail to strangers), a few per admin per quarter hour, audited.
import { audit } from "../audit";
import { db } from "../db/client";
import { Invalid } from "../errors";
import { rateLimiter } from "../security/rate-limit";
import type { TeamContext } from "../teams/team-context";
import { EmailError, emailEnabled, sendMail } from "./mailer";
import { testMail } from "./messages";

export const TEST_EMAILS_PER_QUARTER_HOUR = 5;

const limit = rateLimiter({
  name: "test-email",
  limit: TEST_EMAILS_PER_QUARTER_HOUR,
  windowMs: 15 * 60_000,
  message: "Too many test emails. Wait a few minutes and try again.",
});

/** Sends the test; resolves with what to tell the admin, ok or not (a failed send is not an exception). */
export async function sendTestEmail(ctx: TeamContext): Promise<{ ok: boolean; message: string }> {
  if (!emailEnabled()) throw Invalid("Email is off on this server: the operator sets SMTP_URL (or SMTP_HOST) to turn it on.");
  await limit.hit(ctx.user.id);
  try {
    await sendMail(testMail({ to: ctx.user.email, name: ctx.user.name, sentBy: ctx.user.name }));
  } catch (err) {
    if (err instanceof EmailError) return { ok: false, message: err.message };
    throw err;
  }
  await audit(await db(), { teamId: ctx.team.id, actorId: ctx.user.id, action: "email.test", targetType: "user", targetId: ctx.user.id });
  return { ok: true, message: `Test email sent to ${ctx.user.email}. Check that it arrived.` };
}
