// Team rules on a real database: invites (expiry, single use under a race, revocation, no double
// membership), the last admin, team scoping of members, and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { AppError } from "../errors";
import { DRIVERS, makeUser, rejection, startTestApp } from "../../test/support/test-app";
import type { TeamContext } from "./team-context";
import { acceptInvite, createInvite, inspectInvite, joinWithNewAccount, revokeInvite } from "./invites";
import { changeRole, createTeam, listMembers, removeMember } from "./members";

async function teamWithAdmin(name = "Team") {
  const prisma = await db();
  const admin = await makeUser("admin");
  const team = await prisma.team.create({ data: { name } });
  await prisma.membership.create({ data: { teamId: team.id, userId: admin.id, role: "admin" } });
  const ctx: TeamContext = {
    user: { id: admin.id, name: admin.name, email: admin.email },
    team: { id: team.id, name: team.name, role: "admin" },
    teams: [{ id: team.id, name: team.name, role: "admin" }],
  };
  return { ctx, admin, team };
}

describe.each(DRIVERS)("teams on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    if (driver.skip) return;
    ({ stop } = await startTestApp(driver));
  });
  afterAll(async () => {
    await stop?.();
  });

  it.skipIf(driver.skip)("an invite adds a member once; a second use is refused with a clear message", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 7 });
    const bob = await makeUser("bob");
    const carol = await makeUser("carol");
    await acceptInvite(bob.id, invite.token);
    const err = await rejection(acceptInvite(carol.id, invite.token));
    expect(err.status).toBe(410);
    expect(err.message).toMatch(/already been used/);
    const members = await listMembers(ctx.team.id);
    expect(members.map((m) => m.user.id).sort()).toEqual([ctx.user.id, bob.id].sort());
    expect(members.find((m) => m.user.id === bob.id)?.role).toBe("member");
  });

  it.skipIf(driver.skip)("two people racing for one link: exactly one joins", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 1 });
    const racers = await Promise.all([makeUser("r1"), makeUser("r2"), makeUser("r3")]);
    const results = await Promise.allSettled(racers.map((u) => acceptInvite(u.id, invite.token)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await listMembers(ctx.team.id)).toHaveLength(2);
  });

  it.skipIf(driver.skip)("six new people joining with one link at once: one account, one membership, five clear 409s", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 1 });
    const prisma = await db();
    const stamp = Date.now().toString(36);
    const emails = Array.from({ length: 6 }, (_, i) => `joiner-${stamp}-${i}@example.com`);
    // Each racer's account is made the way sign-up makes one: a user row, only once asked to.
    const results = await Promise.allSettled(
      emails.map((email) =>
        joinWithNewAccount(invite.token, async () => ({ userId: (await prisma.user.create({ data: { id: `u_${email}`, name: email, email } })).id })),
      ),
    );
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(won).toHaveLength(1);
    for (const r of lost) expect(r.reason).toMatchObject({ status: 409, message: expect.stringMatching(/Someone else has just used this invite link/) });
    expect(await prisma.user.count({ where: { email: { in: emails } } })).toBe(1);
    const members = await listMembers(ctx.team.id);
    expect(members).toHaveLength(2);
    expect(members.map((m) => m.user.id)).toContain((won[0] as PromiseFulfilledResult<{ userId: string }>).value.userId);
    expect(await inspectInvite(invite.token)).toMatchObject({ ok: false, reason: "used" });
  });

  it.skipIf(driver.skip)("when the account cannot be made, the link is given back for another try", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 1 });
    const taken = new AppError("Conflict", 409, "An account with this email already exists.");
    expect(await rejection(joinWithNewAccount(invite.token, () => Promise.reject(taken)))).toBe(taken);
    expect(await inspectInvite(invite.token)).toMatchObject({ ok: true });
    const bob = await makeUser("bob");
    await joinWithNewAccount(invite.token, async () => ({ userId: bob.id }));
    expect((await listMembers(ctx.team.id)).map((m) => m.user.id)).toContain(bob.id);
    // A used link is refused before any account is made.
    let asked = false;
    const err = await rejection(joinWithNewAccount(invite.token, async () => ((asked = true), { userId: bob.id })));
    expect(err.status).toBe(410);
    expect(asked).toBe(false);
  });

  it.skipIf(driver.skip)("an expired invite is refused and adds nobody", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "admin", days: 1 });
    await (await db()).invite.update({ where: { id: invite.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await inspectInvite(invite.token)).toMatchObject({ ok: false, reason: "expired" });
    const bob = await makeUser("bob");
    const err = await rejection(acceptInvite(bob.id, invite.token));
    expect(err.message).toMatch(/expired/);
    expect(await listMembers(ctx.team.id)).toHaveLength(1);
  });

  it.skipIf(driver.skip)("forged and revoked links are refused; revoking needs the right team", async () => {
    const { ctx } = await teamWithAdmin();
    expect(await inspectInvite("not a token")).toMatchObject({ ok: false, reason: "invalid" });
    expect(await inspectInvite("A".repeat(32))).toMatchObject({ ok: false, reason: "invalid" });
    const invite = await createInvite(ctx, { role: "member", days: 7 });
    const other = await teamWithAdmin("Other");
    expect((await rejection(revokeInvite(other.ctx, invite.id))).status).toBe(404);
    await revokeInvite(ctx, invite.id);
    expect(await inspectInvite(invite.token)).toMatchObject({ ok: false, reason: "revoked" });
  });

  it.skipIf(driver.skip)("a member accepting an invite to their own team is told so, and the link stays usable", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 7 });
    const err = await rejection(acceptInvite(ctx.user.id, invite.token));
    expect(err.status).toBe(409);
    expect(await inspectInvite(invite.token)).toMatchObject({ ok: true });
  });

  it.skipIf(driver.skip)("the last admin can be neither demoted nor removed; with two admins one may go", async () => {
    const { ctx } = await teamWithAdmin();
    const [self] = await listMembers(ctx.team.id);
    expect((await rejection(changeRole(ctx, self.id, "member"))).message).toMatch(/at least one admin/);
    expect((await rejection(removeMember(ctx, self.id))).message).toMatch(/at least one admin/);

    const invite = await createInvite(ctx, { role: "admin", days: 7 });
    const bob = await makeUser("bob");
    await acceptInvite(bob.id, invite.token);
    const bobRow = (await listMembers(ctx.team.id)).find((m) => m.user.id === bob.id)!;
    // Both admins demoted at once: the team still ends with one admin.
    const results = await Promise.allSettled([changeRole(ctx, self.id, "member"), changeRole(ctx, bobRow.id, "member")]);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect((await listMembers(ctx.team.id)).filter((m) => m.role === "admin")).toHaveLength(1);
  });

  it.skipIf(driver.skip)("members of another team cannot be changed or removed (404)", async () => {
    const a = await teamWithAdmin("A");
    const b = await teamWithAdmin("B");
    const [bAdmin] = await listMembers(b.team.id);
    expect((await rejection(changeRole(a.ctx, bAdmin.id, "member"))).status).toBe(404);
    expect((await rejection(removeMember(a.ctx, bAdmin.id))).status).toBe(404);
    expect(await listMembers(b.team.id)).toHaveLength(1);
  });

  it.skipIf(driver.skip)("only admins create teams; the creator becomes its admin", async () => {
    const { ctx } = await teamWithAdmin();
    const memberCtx: TeamContext = { ...ctx, team: { ...ctx.team, role: "member" }, teams: [{ ...ctx.team, role: "member" }] };
    expect((await rejection(createTeam(memberCtx, "Nope"))).status).toBe(403);
    const { teamId } = await createTeam(ctx, "Second");
    const members = await listMembers(teamId);
    expect(members).toEqual([expect.objectContaining({ role: "admin", user: expect.objectContaining({ id: ctx.user.id }) })]);
  });

  it.skipIf(driver.skip)("every change is an audit event with who, what and when", async () => {
    const { ctx } = await teamWithAdmin();
    const invite = await createInvite(ctx, { role: "member", days: 7 });
    const bob = await makeUser("bob");
    await acceptInvite(bob.id, invite.token);
    const row = (await listMembers(ctx.team.id)).find((m) => m.user.id === bob.id)!;
    await changeRole(ctx, row.id, "admin");
    await removeMember(ctx, row.id);
    const events = await (await db()).auditEvent.findMany({ where: { teamId: ctx.team.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["invite.create", "invite.accept", "member.role", "member.remove"]);
    expect(events[2]).toMatchObject({ actorId: ctx.user.id, targetId: bob.id, data: { from: "member", to: "admin" } });
    expect(JSON.stringify(events)).not.toContain(invite.token);
  });
});
