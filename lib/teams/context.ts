// The team a request acts in: the user's chosen team (a cookie, re-checked against memberships on
// every request) or their first one. requireAdmin is the server-side gate for every admin page,
// route and action.
import { cookies, headers } from "next/headers";
import { db } from "../db/client";
import { AppError, Forbidden, NotFound, Unauthorized } from "../errors";
import { sessionWithTeams } from "./session-teams";
import { membershipsQuery, toTeamSummaries, type TeamSummary } from "./memberships";
import { requireUser, type SessionUser } from "../auth/session";

export const TEAM_COOKIE = "parley_team";

export type { TeamSummary };
export type TeamContext = { user: SessionUser; team: TeamSummary; teams: TeamSummary[] };

export async function teamsOf(userId: string): Promise<TeamSummary[]> {
  const prisma = await db();
  return toTeamSummaries(await prisma.membership.findMany({ where: { userId }, ...membershipsQuery }));
}

/**
 * The team to act in: `teamId` when a route names one (404 unless the caller is a member, whether
 * or not it exists), else the user's chosen team from the cookie, else their first team.
 */
export async function requireTeam(teamId?: string): Promise<TeamContext> {
  const user = await requireUser();
  return pickTeam(user, await teamsOf(user.id), teamId);
}

/**
 * requireTeam in one query, straight from the session cookie and without better-auth's request
 * handling (lib/teams/session-teams.ts): for POST /api/chat, whose start every answer waits on.
 */
export async function requireTeamFromSessionCookie(): Promise<TeamContext> {
  const signedIn = await sessionWithTeams(await headers());
  if (!signedIn) throw Unauthorized();
  return pickTeam(signedIn.user, signedIn.teams);
}

async function pickTeam(user: SessionUser, teams: TeamSummary[], teamId?: string): Promise<TeamContext> {
  if (teamId !== undefined) {
    const team = teams.find((t) => t.id === teamId);
    if (!team) throw NotFound();
    return { user, team, teams };
  }
  if (!teams.length) throw new AppError("NoTeam", 404, "You are not a member of any team.");
  const chosen = (await cookies()).get(TEAM_COOKIE)?.value;
  const team = teams.find((t) => t.id === chosen) ?? teams[0];
  return { user, team, teams };
}

export async function requireAdmin(teamId?: string): Promise<TeamContext> {
  const ctx = await requireTeam(teamId);
  if (ctx.team.role !== "admin") throw Forbidden();
  return ctx;
}
