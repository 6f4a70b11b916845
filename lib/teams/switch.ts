// Remembers the team a user works in (a cookie; every request re-checks the membership).
import { cookies } from "next/headers";
import { requireTeam, TEAM_COOKIE } from "./context";

export async function rememberTeam(teamId: string): Promise<void> {
  (await cookies()).set(TEAM_COOKIE, teamId, { httpOnly: true, sameSite: "lax", path: "/", maxAge: 60 * 60 * 24 * 365 });
}

/** Switches to a team the caller belongs to; 404 otherwise. */
export async function switchTeam(teamId: string): Promise<void> {
  await requireTeam(teamId);
  await rememberTeam(teamId);
}
