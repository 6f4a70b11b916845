// Invites, password resets and the admin's test email through a real SMTP server on loopback and a real
// database: the emails name the team, who invited and the person; their links work (an invite is
// accepted from the email's link, a reset link sets the password once and ends every session);
// "Forgot password?" answers the same whether or not the address has an account, sends nothing for
// unknown or password-less accounts, is limited per account and per address; a failed send leaves the
// link usable and says why; without SMTP settings nothing is sent and the callers are told email is off.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { signIn, signUp } from "../auth/accounts";
import { db } from "../db/client";
import { sendTestEmail } from "../email/smtp-check";
import { DATABASES, rejection, startTestApp } from "../../test/support/test-app";
import { startSmtpServer, type TestSmtpServer } from "../../test/support/smtp-server";
import { EMAILS_PER_ACCOUNT, FORGOT_ANSWER, REQUESTS_PER_ADDRESS, requestPasswordReset } from "./forgot-password";
import { acceptInvite, createInvite, createInviteSchema, inspectInvite, listOpenInvites } from "./invites";
import { emailInvite, emailResetLink } from "./link-emails";
import { createPasswordReset, inspectPasswordReset, resetPassword } from "./password-resets";
import type { TeamContext } from "./team-context";

const OLD = "pelican umbrella quarry";
const NEW = "lantern orchard meridian";
const BASE = "http://parley.example.test";

let seq = 0;
async function account(name: string) {
  const email = `${name.split(" ")[0].toLowerCase()}-${Date.now().toString(36)}-${seq++}@example.com`;
  const { userId } = await signUp({ name, email, password: OLD }, new Headers());
  return { id: userId, name, email };
}

async function team(name: string) {
  const prisma = await db();
  const admin = await account("Grace Admin");
  const member = await account("Ada Member");
  const t = await prisma.team.create({ data: { name } });
  await prisma.membership.create({ data: { teamId: t.id, userId: admin.id, role: "admin" } });
  const membership = await prisma.membership.create({ data: { teamId: t.id, userId: member.id, role: "member" } });
  const ctx: TeamContext = { user: admin, team: { id: t.id, name, role: "admin" }, teams: [{ id: t.id, name, role: "admin" }] };
  return { ctx, admin, member, membership };
}

const signsIn = (email: string, password: string) =>
  signIn({ email, password }, new Headers()).then(
    () => true,
    () => false,
  );
const tokenOf = (link: string, kind: "invite" | "reset") => new URL(link).pathname.replace(`/${kind}/`, "");

let address = 0;
/** A client address of its own per test, so the per-address limit of one test does not touch another. */
const freshAddress = () => `198.51.100.${++address}`;

describe.each(DATABASES)("email links on $name", (driver) => {
  let stop: () => Promise<void>;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    smtp = await startSmtpServer();
  }, 180_000);
  afterAll(async () => {
    await smtp?.close();
    await stop?.();
  });
  const emailOn = () => {
    vi.stubEnv("SMTP_URL", smtp.url);
    vi.stubEnv("SMTP_FROM", "Parley <parley@example.test>");
  };
  afterEach(() => vi.unstubAllEnvs());

  it("an emailed invite names the team and who invited, and its link joins the team", async () => {
    emailOn();
    const { ctx } = await team("Platform Crew");
    const to = `newcomer-${seq++}@example.com`;
    // As the form sends it: the address is kept lower-case and trimmed.
    const invite = await createInvite(ctx, createInviteSchema.parse({ role: "member", days: "7", email: ` ${to.toUpperCase()} ` }));
    expect(invite.email).toBe(to);
    expect(await emailInvite(ctx, { ...invite, email: invite.email! }, `${BASE}/invite/${invite.token}`)).toEqual({ sent: true });

    const mail = await smtp.waitFor((m) => m.to.includes(to));
    expect(mail.subject).toBe("Grace Admin invited you to Platform Crew on Parley");
    expect(mail.text).toContain("Grace Admin invited you to join the team Platform Crew on Parley, as a member.");
    expect(mail.html).toContain("Join Platform Crew");
    expect(mail.from).toContain("parley@example.test");
    const link = mail.links.find((l) => l.includes("/invite/"))!;
    expect(link).toBe(`${BASE}/invite/${invite.token}`);
    // The open invites show where it went.
    expect((await listOpenInvites(ctx)).find((i) => i.id === invite.id)?.email).toBe(to);

    const newcomer = await account("Newcomer");
    await acceptInvite(newcomer.id, tokenOf(link, "invite"));
    expect(await (await db()).membership.count({ where: { teamId: ctx.team.id, userId: newcomer.id } })).toBe(1);
    expect(await inspectInvite(tokenOf(link, "invite"))).toMatchObject({ ok: false, reason: "used" });
    const events = await (await db()).auditEvent.findMany({ where: { teamId: ctx.team.id, action: { in: ["invite.create", "invite.email"] } } });
    expect(events.map((e) => e.action).sort()).toEqual(["invite.create", "invite.email"]);
  });

  it("a failed send leaves the invite link usable and says why; without SMTP the email is not attempted", async () => {
    const refusing = await startSmtpServer({ refuse: true });
    try {
      vi.stubEnv("SMTP_URL", refusing.url);
      const { ctx } = await team("Refused Team");
      const invite = await createInvite(ctx, { role: "admin", days: 1, email: "someone@example.com" });
      const sent = await emailInvite(ctx, { ...invite, email: invite.email! }, `${BASE}/invite/${invite.token}`);
      expect(sent).toMatchObject({ sent: false, reason: expect.stringMatching(/Could not send email through 127\.0\.0\.1:\d+/) });
      expect(await inspectInvite(invite.token)).toMatchObject({ ok: true, teamName: "Refused Team" });
    } finally {
      await refusing.close();
    }
    vi.stubEnv("SMTP_URL", "");
    const { ctx } = await team("No Mail Team");
    const before = smtp.messages.length;
    const invite = await createInvite(ctx, { role: "member", days: 1, email: "other@example.com" });
    expect(await emailInvite(ctx, { ...invite, email: invite.email! }, `${BASE}/invite/${invite.token}`)).toEqual({
      sent: false,
      reason: "Email is off on this server.",
    });
    expect(smtp.messages.length).toBe(before);
  });

  it("an admin's reset link emailed to the member sets the password once and ends the member's sessions", async () => {
    emailOn();
    const { ctx, member, membership } = await team("Reset Team");
    expect(await signsIn(member.email, OLD)).toBe(true);
    const reset = await createPasswordReset(ctx, membership.id);
    expect(await emailResetLink(ctx, reset, `${BASE}/reset/${reset.token}`)).toEqual({ sent: true });

    const mail = await smtp.waitFor((m) => m.to.includes(member.email));
    expect(mail.subject).toBe("Reset your Parley password");
    expect(mail.text).toContain("Hello Ada Member,");
    expect(mail.text).toContain("Grace Admin, an admin of your team, made a link for you");
    const token = tokenOf(
      mail.links.find((l) => l.includes("/reset/"))!,
      "reset",
    );
    await resetPassword(token, NEW);
    expect(await (await db()).session.count({ where: { userId: member.id } })).toBe(0);
    expect(await signsIn(member.email, NEW)).toBe(true);
    expect((await rejection(resetPassword(token, "yet another long passphrase"))).status).toBe(410);
  });

  it("Forgot password? emails the person a link that works once, expires and ends every session", async () => {
    emailOn();
    const { member } = await team("Forgetful Team");
    expect(await signsIn(member.email, OLD)).toBe(true);
    const { message, delivery } = await requestPasswordReset({ email: member.email, clientAddress: freshAddress(), baseUrl: BASE });
    expect(message).toBe(FORGOT_ANSWER);
    await delivery;
    const mail = await smtp.waitFor((m) => m.to.includes(member.email));
    expect(mail.subject).toBe("Reset your Parley password");
    expect(mail.text).toContain("Someone (we hope you) asked to reset the password of your Parley account.");
    const token = tokenOf(
      mail.links.find((l) => l.startsWith(`${BASE}/reset/`))!,
      "reset",
    );
    const status = await inspectPasswordReset(token);
    expect(status).toMatchObject({ ok: true, email: member.email });
    // Short-lived: an hour, not the day an admin's link lasts.
    if (status.ok) expect(status.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(60 * 60_000);

    await resetPassword(token, NEW);
    expect(await (await db()).session.count({ where: { userId: member.id } })).toBe(0);
    expect(await signsIn(member.email, NEW)).toBe(true);
    const again = await rejection(resetPassword(token, "yet another long passphrase"));
    expect(again.message).toMatch(/already been used\. Ask for a new one with “Forgot password\?”/);
    const audit = await (await db()).auditEvent.findMany({ where: { targetId: member.id, action: { startsWith: "password." } } });
    expect(audit.map((e) => e.action).sort()).toEqual(["password.reset", "password.reset-request"]);

    // A later link expires like any other.
    const second = await requestPasswordReset({ email: member.email, clientAddress: freshAddress(), baseUrl: BASE });
    await second.delivery;
    const later = await smtp.waitFor((m) => m.to.includes(member.email) && !m.links.some((l) => l.endsWith(token)));
    const laterToken = tokenOf(
      later.links.find((l) => l.includes("/reset/"))!,
      "reset",
    );
    await (await db()).passwordReset.updateMany({ where: { userId: member.id, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await inspectPasswordReset(laterToken)).toMatchObject({ ok: false, reason: "expired" });
  });

  it("gives the same answer for an unknown address and a password-less account, and sends them nothing", async () => {
    emailOn();
    const prisma = await db();
    const ssoOnly = await prisma.user.create({ data: { id: `sso-${seq++}`, name: "Sso Only", email: `sso-${seq++}@example.com` } });
    const before = smtp.messages.length;
    const unknown = await requestPasswordReset({ email: `nobody-${seq++}@example.com`, clientAddress: freshAddress(), baseUrl: BASE });
    const passwordless = await requestPasswordReset({ email: ssoOnly.email, clientAddress: freshAddress(), baseUrl: BASE });
    expect(unknown.message).toBe(FORGOT_ANSWER);
    expect(passwordless.message).toBe(FORGOT_ANSWER);
    await Promise.all([unknown.delivery, passwordless.delivery]);
    expect(smtp.messages.length).toBe(before);
    expect(await prisma.passwordReset.count({ where: { userId: ssoOnly.id } })).toBe(0);
  });

  it("limits the emails per account silently and the requests per address with a 429", async () => {
    emailOn();
    const { member } = await team("Flooded Team");
    for (let i = 0; i < EMAILS_PER_ACCOUNT + 2; i++) {
      const r = await requestPasswordReset({ email: member.email, clientAddress: freshAddress(), baseUrl: BASE });
      expect(r.message).toBe(FORGOT_ANSWER);
      await r.delivery;
    }
    expect(smtp.to(member.email)).toHaveLength(EMAILS_PER_ACCOUNT);

    const from = freshAddress();
    for (let i = 0; i < REQUESTS_PER_ADDRESS; i++) await requestPasswordReset({ email: `probe-${i}@example.com`, clientAddress: from, baseUrl: BASE });
    const refused = await rejection(requestPasswordReset({ email: "probe-last@example.com", clientAddress: from, baseUrl: BASE }));
    expect(refused.status).toBe(429);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it("sends no link when the app's address cannot be trusted, and refuses when email is off", async () => {
    emailOn();
    const { member } = await team("Untrusted Host Team");
    const r = await requestPasswordReset({ email: member.email, clientAddress: freshAddress(), baseUrl: null });
    expect(r.message).toBe(FORGOT_ANSWER);
    await r.delivery;
    expect(smtp.to(member.email)).toHaveLength(0);

    vi.stubEnv("SMTP_URL", "");
    const off = await rejection(requestPasswordReset({ email: member.email, clientAddress: freshAddress(), baseUrl: BASE }));
    expect(off.status).toBe(400);
    expect(off.message).toMatch(/Email is off/);
    expect(await inspectPasswordReset("x".repeat(32))).toMatchObject({ ok: false, message: expect.stringMatching(/Ask an admin of your team for a new one/) });
  });

  it("Send test email reaches the admin's own address; with email off it says so", async () => {
    emailOn();
    const { ctx, admin } = await team("Test Mail Team");
    expect(await sendTestEmail(ctx)).toEqual({ ok: true, message: `Test email sent to ${admin.email}. Check that it arrived.` });
    const mail = await smtp.waitFor((m) => m.to.includes(admin.email));
    expect(mail.subject).toBe("Parley test email");
    expect(mail.text).toContain("Grace Admin sent this test from Admin → Notifications.");
    vi.stubEnv("SMTP_URL", "");
    expect((await rejection(sendTestEmail(ctx))).message).toMatch(/Email is off on this server/);
  });
});
