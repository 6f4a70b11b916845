// "Forgot password?": a person asks for a reset link by email, with no admin involved (only when email
// is on). The answer is the same whether or not the address has an account, and comes before any
// lookup: finding the account, making the link and sending it happen after the answer (`delivery`),
// so neither the words nor the time tell who has an account here.
// Limits, in the store every auth limit counts in (lib/security/rate-limit.ts; Redis with REDIS_URL):
// per client address REQUESTS_PER_ADDRESS a quarter hour (then 429, for every address alike), and per
// account EMAILS_PER_ACCOUNT an hour (past it, nothing is sent and the answer stays the same), so
// nobody can flood someone's mailbox. The link (a PasswordReset of no team) works once, for
// SELF_RESET_TTL_MINUTES; using it ends every session of the account (password-resets.ts).
import { z } from "zod";
import { db } from "../db/client";
import { emailEnabled, sendMail } from "../email/mailer";
import { resetMail } from "../email/messages";
import { Invalid } from "../errors";
import { addressBucket } from "../security/client-address";
import { counter, rateLimiter, RateLimiterRes } from "../security/rate-limit";
import { emailField } from "../validation";
import { issueResetLink } from "./password-resets";

export const SELF_RESET_TTL_MINUTES = 60;
export const REQUESTS_PER_ADDRESS = 10;
export const EMAILS_PER_ACCOUNT = 3;

export const forgotPasswordSchema = z.object({ email: emailField });

/** What every request is told, whoever asked. */
export const FORGOT_ANSWER = `If an account with this address exists and signs in with a password, we have sent it a link to choose a new password. It works once, for ${SELF_RESET_TTL_MINUTES} minutes. Nothing arrived? Check your spam folder, or ask an admin of your team.`;

const perAddress = rateLimiter({
  name: "forgot-password-address",
  limit: REQUESTS_PER_ADDRESS,
  windowMs: 15 * 60_000,
  message: "Too many password reset requests from your network. Wait a few minutes and try again.",
});
const perAccount = counter({ name: "forgot-password-account", points: EMAILS_PER_ACCOUNT, durationSec: 60 * 60 });

export type ForgotRequest = { email: string; clientAddress: string | undefined; baseUrl: string | null };

/**
 * Takes a request: refuses it (429) past the address's limit, else answers FORGOT_ANSWER and returns the
 * work that sends the link (`delivery`, never rejecting: a failure is logged), which the caller need
 * not wait for.
 */
export async function requestPasswordReset(req: ForgotRequest): Promise<{ message: string; delivery: Promise<void> }> {
  if (!emailEnabled()) throw Invalid("Email is off on this server: ask an admin of your team for a password reset link.");
  if (req.clientAddress) await perAddress.hit(addressBucket(req.clientAddress));
  const delivery = sendResetLink(req).catch((err: unknown) =>
    console.error("[forgot-password] could not send a reset link:", err instanceof Error ? err.message : err),
  );
  return { message: FORGOT_ANSWER, delivery };
}

async function sendResetLink({ email, baseUrl }: ForgotRequest): Promise<void> {
  if (!baseUrl) {
    console.error("[forgot-password] not sent: set PARLEY_URL so that emailed links point at this server");
    return;
  }
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { email },
    select: { id: true, name: true, email: true, accounts: { where: { providerId: "credential" }, select: { id: true } } },
  });
  if (!user || user.accounts.length === 0) return;
  try {
    await perAccount.consume(user.id);
  } catch (err) {
    if (err instanceof RateLimiterRes) return; // enough links on their way to this mailbox
    throw err;
  }
  const { token, expiresAt } = await issueResetLink(
    { user: { id: user.id } },
    { userId: user.id, teamId: null, createdById: user.id, ttlMs: SELF_RESET_TTL_MINUTES * 60_000 },
    (resetId) => ({ action: "password.reset-request", data: { resetId, minutes: SELF_RESET_TTL_MINUTES } }),
  );
  await sendMail(resetMail({ to: user.email, name: user.name, url: `${baseUrl}/reset/${token}`, expiresAt }));
}
