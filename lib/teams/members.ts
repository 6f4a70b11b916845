// Members of a team: list, change role, remove, leave; and creating further teams. A team always
// keeps at least one admin: the check and the change run in one transaction holding the team row.
import { z } from "zod";
import { db } from "../db/client";
import type { Prisma, TeamRole } from "../db/generated/client";
import { Conflict, Forbidden, NotFound } from "../errors";
import { audited } from "../audit";
import { teamNameField } from "../validation";
import { seedEnvProvider } from "../providers/seed-env";
import type { TeamContext } from "./team-context";

export const changeRoleSchema = z.object({ membershipId: z.string().min(1).max(64), role: z.enum(["admin", "member"]) });
export const removeMemberSchema = z.object({ membershipId: z.string().min(1).max(64) });
export const createTeamSchema = z.object({ name: teamNameField });

export async function listMembers(teamId: string) {
  const prisma = await db();
  const rows = await prisma.membership.findMany({
    where: { teamId },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({ id: m.id, role: m.role, joinedAt: m.createdAt, user: m.user }));
}

const LAST_ADMIN = "A team needs at least one admin. Make someone else an admin first.";

async function lockTeam(tx: Prisma.TransactionClient, teamId: string) {
  await tx.$queryRaw`SELECT "id" FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
}

async function memberOfTeam(tx: Prisma.TransactionClient, teamId: string, membershipId: string) {
  const m = await tx.membership.findFirst({ where: { id: membershipId, teamId } });
  if (!m) throw NotFound("No such member in your team.");
  return m;
}

export async function changeRole(ctx: TeamContext, membershipId: string, role: TeamRole): Promise<void> {
  await audited(
    ctx,
    async (tx) => {
      await lockTeam(tx, ctx.team.id);
      const m = await memberOfTeam(tx, ctx.team.id, membershipId);
      if (m.role === role) return null;
      if (m.role === "admin" && (await tx.membership.count({ where: { teamId: ctx.team.id, role: "admin" } })) <= 1) {
        throw Conflict(LAST_ADMIN);
      }
      await tx.membership.update({ where: { id: m.id }, data: { role } });
      return m;
    },
    (m) => m && { action: "member.role", targetType: "user", targetId: m.userId, data: { from: m.role, to: role } },
  );
}

/** Removes a member (an admin acting) or the caller themself (leaving). */
export async function removeMember(ctx: TeamContext, membershipId: string): Promise<void> {
  await audited(
    ctx,
    async (tx) => {
      await lockTeam(tx, ctx.team.id);
      const m = await memberOfTeam(tx, ctx.team.id, membershipId);
      if (m.role === "admin" && (await tx.membership.count({ where: { teamId: ctx.team.id, role: "admin" } })) <= 1) {
        throw Conflict(LAST_ADMIN);
      }
      await tx.membership.delete({ where: { id: m.id } });
      return m;
    },
    (m) => ({ action: m.userId === ctx.user.id ? "member.leave" : "member.remove", targetType: "user", targetId: m.userId }),
  );
}

/** A new team with the caller as its admin. Only admins of some team may create teams. */
export async function createTeam(ctx: TeamContext, name: string): Promise<{ teamId: string }> {
  if (!ctx.teams.some((t) => t.role === "admin")) throw Forbidden("Only team admins can create teams.");
  const prisma = await db();
  const created = await audited(
    ctx,
    async (tx) => {
      const team = await tx.team.create({ data: { name } });
      await tx.membership.create({ data: { teamId: team.id, userId: ctx.user.id, role: "admin" } });
      return { teamId: team.id };
    },
    ({ teamId }) => ({ teamId, action: "team.create", targetType: "team", targetId: teamId, data: { name } }),
  );
  await seedEnvProvider(prisma, created.teamId);
  return created;
}
