// Instance admins: the admins of the installation's first team (the one made at first-run setup).
// They own what belongs to the whole installation rather than one team, such as single sign-on: a
// sign-in provider decides who everybody is, so an admin of a team made later must not change it.
import { db } from "../db/client";
import { Forbidden } from "../errors";
import type { TeamContext } from "./team-context";

/** The first team (oldest), or null before setup. */
export async function firstTeamId(): Promise<string | null> {
  const prisma = await db();
  const team = await prisma.team.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return team?.id ?? null;
}

export async function isInstanceAdmin(userId: string): Promise<boolean> {
  const teamId = await firstTeamId();
  if (!teamId) return false;
  const prisma = await db();
  const m = await prisma.membership.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true } });
  return m?.role === "admin";
}

/** 403 unless the user of an admin's context is also an instance admin. */
export async function checkInstanceAdmin(ctx: TeamContext): Promise<void> {
  if (!(await isInstanceAdmin(ctx.user.id))) throw Forbidden("Only admins of the first team can change how people sign in.");
}
