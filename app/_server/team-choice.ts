// The team a user chose to work in: a cookie, re-checked against their memberships on every request
// (lib/teams/context.ts).
import { cookies } from "next/headers";
import { NotFound } from "@/lib/errors";
import type { TeamContext } from "@/lib/teams/team-context";

const TEAM_COOKIE = "parley_team";

/** The id of the team the caller chose last, if any (not yet checked). */
export async function chosenTeamId(): Promise<string | undefined> {
  return (await cookies()).get(TEAM_COOKIE)?.value;
}

export async function rememberTeam(teamId: string): Promise<void> {
  (await cookies()).set(TEAM_COOKIE, teamId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 * 60 * 24 * 365 });
}

/** Switches the caller to one of their teams; 404 for a team they are not a member of. */
export async function switchTeam(ctx: TeamContext, teamId: string): Promise<void> {
  if (!ctx.teams.some((t) => t.id === teamId)) throw NotFound();
  await rememberTeam(teamId);
}
