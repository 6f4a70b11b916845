// Password reset links on a real database with better-auth's real accounts: a link works once, not
// after it expires, ends every session of the member, and is audited; weak passwords are refused
// without using the link up; only an admin of all the member's teams can make one, and never for an
// id outside their team.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signUp } from "../auth/accounts";
import { db } from "../db/client";
import { DRIVERS, rejection, startTestApp } from "../../test/support/test-app";
import type { TeamContext } from "./team-context";
import { createPasswordReset, inspectPasswordReset, resetPassword } from "./password-resets";

const OLD = "pelican umbrella quarry";
const NEW = "lantern orchard meridian";

let seq = 0;
async function account(name: string) {
  const email = `${name.toLowerCase()}-${Date.now().toString(36)}-${seq++}@example.com`;
  const { userId } = await signUp({ name, email, password: OLD }, new Headers());
  return { id: userId, name, email };
}

/** A team with an admin and a member (real accounts), and the admin's context. */
async function team(name = "Reset team") {
  const prisma = await db();
  const admin = await account("Admin");
  const member = await account("Member");
  const t = await prisma.team.create({ data: { name } });
  await prisma.membership.create({ data: { teamId: t.id, userId: admin.id, role: "admin" } });
  const membership = await prisma.membership.create({ data: { teamId: t.id, userId: member.id, role: "member" } });
  const ctx: TeamContext = { user: admin, team: { id: t.id, name, role: "admin" }, teams: [{ id: t.id, name, role: "admin" }] };
  return { ctx, admin, member, membership, team: t };
}

const signsIn = (email: string, password: string) =>
  signIn({ email, password }, new Headers()).then(
    () => true,
    () => false,
  );

describe.each(DRIVERS)("password reset links on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(async () => {
    await stop?.();
  });

  it.skipIf(driver.skip)("a link sets the new password once, ends the member's sessions, and is audited", async () => {
    const { ctx, member, membership } = await team();
    const prisma = await db();
    expect(await signsIn(member.email, OLD)).toBe(true);
    expect(await prisma.session.count({ where: { userId: member.id } })).toBeGreaterThan(0);

    const link = await createPasswordReset(ctx, membership.id);
    expect(await inspectPasswordReset(link.token)).toMatchObject({ ok: true, email: member.email });
    // Only the hash is stored.
    expect(await prisma.passwordReset.count({ where: { tokenHash: link.token } })).toBe(0);

    await resetPassword(link.token, NEW);
    expect(await prisma.session.count({ where: { userId: member.id } })).toBe(0);
    expect(await signsIn(member.email, OLD)).toBe(false);
    expect(await signsIn(member.email, NEW)).toBe(true);

    const again = await rejection(resetPassword(link.token, "another fine passphrase here"));
    expect(again.status).toBe(410);
    expect(again.message).toMatch(/already been used/);
    expect(await signsIn(member.email, NEW)).toBe(true);

    const events = await prisma.auditEvent.findMany({ where: { targetId: member.id, action: { startsWith: "password." } }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ["password.reset-link", ctx.user.id],
      ["password.reset", member.id],
    ]);
  });

  it.skipIf(driver.skip)("an expired link is refused and changes nothing", async () => {
    const { ctx, member, membership } = await team();
    const link = await createPasswordReset(ctx, membership.id);
    const prisma = await db();
    await prisma.passwordReset.updateMany({ where: { userId: member.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await inspectPasswordReset(link.token)).toMatchObject({ ok: false, reason: "expired" });
    const err = await rejection(resetPassword(link.token, NEW));
    expect(err.status).toBe(410);
    expect(await signsIn(member.email, OLD)).toBe(true);
  });

  it.skipIf(driver.skip)("a weak password is refused with the reason and leaves the link usable", async () => {
    const { ctx, member, membership } = await team();
    const link = await createPasswordReset(ctx, membership.id);
    const err = await rejection(resetPassword(link.token, "password123"));
    expect(err.status).toBe(400);
    expect(err.fieldErrors?.newPassword).toMatch(/Choose a harder password/);
    expect(await rejection(resetPassword(link.token, "short"))).toMatchObject({ status: 400 });
    await resetPassword(link.token, NEW);
    expect(await signsIn(member.email, NEW)).toBe(true);
  });

  it.skipIf(driver.skip)("a new link replaces the open one", async () => {
    const { ctx, membership } = await team();
    const first = await createPasswordReset(ctx, membership.id);
    const second = await createPasswordReset(ctx, membership.id);
    expect(await inspectPasswordReset(first.token)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await inspectPasswordReset(second.token)).toMatchObject({ ok: true });
  });

  it.skipIf(driver.skip)("no link for another team's member, a forged id, oneself, or someone also in a team the admin does not run", async () => {
    const a = await team("Team A");
    const b = await team("Team B");
    expect((await rejection(createPasswordReset(a.ctx, b.membership.id))).status).toBe(404);
    expect((await rejection(createPasswordReset(a.ctx, "forged-membership-id"))).status).toBe(404);
    const prisma = await db();
    const own = await prisma.membership.findFirstOrThrow({ where: { teamId: a.team.id, userId: a.admin.id } });
    expect((await rejection(createPasswordReset(a.ctx, own.id))).status).toBe(400);
    // B's member joins A too: A's admin cannot reset a password that also opens team B.
    const shared = await prisma.membership.create({ data: { teamId: a.team.id, userId: b.member.id, role: "member" } });
    const err = await rejection(createPasswordReset(a.ctx, shared.id));
    expect(err.status).toBe(403);
    expect(err.message).toMatch(/also in a team you are not an admin of/);
    expect(await prisma.passwordReset.count({ where: { userId: { in: [b.member.id, a.admin.id] } } })).toBe(0);
    // An admin of both teams can.
    await prisma.membership.create({ data: { teamId: b.team.id, userId: a.admin.id, role: "admin" } });
    const both: TeamContext = { ...a.ctx, teams: [...a.ctx.teams, { id: b.team.id, name: "Team B", role: "admin" }] };
    expect((await createPasswordReset(both, shared.id)).token).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it.skipIf(driver.skip)("malformed and unknown tokens are not usable", async () => {
    expect(await inspectPasswordReset("../../etc")).toMatchObject({ ok: false, reason: "invalid" });
    expect((await rejection(resetPassword("A".repeat(32), NEW))).status).toBe(404);
  });
});
