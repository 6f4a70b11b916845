// The team a request acts in: the team the user chose (the value of the cookie app/ keeps, re-checked
// against memberships on every request) or their first one; and the admin gate of every admin page,
// route and action. Plain functions of what the caller read from the request (app/_server/caller.ts).
import { db } from "../db/client";
import { AppError, Forbidden, NotFound, Unauthorized } from "../errors";
import { sessionWithTeams } from "./session-teams";
import { membershipsQuery, toTeamSummaries, type TeamSummary } from "./memberships";
import { signedInUser, type SessionUser } from "../auth/session";
import type { TeamContext } from "./team-context";

/** What the team context is read from: the request's headers (the session cookie) and the chosen team's id. */
export type CallerRequest = { headers: Headers; chosenTeamId: string | undefined };

export async function teamsOf(userId: string): Promise<TeamSummary[]> {
  const prisma = await db();
  return toTeamSummaries(await prisma.membership.findMany({ where: { userId }, ...membershipsQuery }));
}

/**
 * The team to act in: `teamId` when a route names one (404 unless the caller is a member, whether
 * or not it exists), else the user's chosen team, else their first team.
 */
export async function teamContext(request: CallerRequest, teamId?: string): Promise<TeamContext> {
  const user = await signedInUser(request.headers);
  return pickTeam(user, await teamsOf(user.id), request.chosenTeamId, teamId);
}

/**
 * teamContext in one query, straight from the session cookie and without better-auth's request
 * handling (lib/teams/session-teams.ts): for routes whose start the caller waits on.
 */
export async function teamContextFromSessionCookie(request: CallerRequest): Promise<TeamContext> {
  const signedIn = await sessionWithTeams(request.headers);
  if (!signedIn) throw Unauthorized();
  return pickTeam(signedIn.user, signedIn.teams, request.chosenTeamId);
}

/** teamContext of an admin of that team; 403 for a member. */
export async function adminContext(request: CallerRequest, teamId?: string): Promise<TeamContext> {
  const ctx = await teamContext(request, teamId);
  if (ctx.team.role !== "admin") throw Forbidden();
  return ctx;
}

/** The team to act in among `teams` (see teamContext); exported for the chat route's own session read (lib/turn/turn-input.ts). */
export function pickTeam(user: SessionUser, teams: TeamSummary[], chosenTeamId: string | undefined, teamId?: string): TeamContext {
  if (teamId !== undefined) {
    const team = teams.find((t) => t.id === teamId);
    if (!team) throw NotFound();
    return { user, team, teams };
  }
  if (!teams.length) throw new AppError("NoTeam", 404, "You are not a member of any team.");
  const team = teams.find((t) => t.id === chosenTeamId) ?? teams[0];
  return { user, team, teams };
}
