// Who is calling and the team they act in, read from the current request (Next's headers and cookies)
// and checked by lib: the gates of every page, route handler and server action. A refusal is thrown
// as lib's AppError (401, 403, 404); page-guards.ts, lib/http.ts and actions.ts answer it.
import { headers } from "next/headers";
import { sessionUser, signedInUser, type SessionUser } from "@/lib/auth/session";
import { adminContext, teamContext, teamContextFromSessionCookie, type CallerRequest } from "@/lib/teams/context";
import { checkInstanceAdmin } from "@/lib/teams/instance-admin";
import type { TeamContext } from "@/lib/teams/team-context";
import { chosenTeamId } from "./team-choice";

async function callerRequest(): Promise<CallerRequest> {
  return { headers: await headers(), chosenTeamId: await chosenTeamId() };
}

export async function currentUser(): Promise<SessionUser | null> {
  return sessionUser(await headers());
}

export async function requireUser(): Promise<SessionUser> {
  return signedInUser(await headers());
}

/** The team the caller acts in: `teamId` (404 unless theirs), else the one they chose, else their first. */
export async function requireTeam(teamId?: string): Promise<TeamContext> {
  return teamContext(await callerRequest(), teamId);
}

/** requireTeam in one query (lib/teams/session-teams.ts): for routes whose start every answer waits on. */
export async function requireTeamFromSessionCookie(): Promise<TeamContext> {
  return teamContextFromSessionCookie(await callerRequest());
}

export async function requireAdmin(teamId?: string): Promise<TeamContext> {
  return adminContext(await callerRequest(), teamId);
}

/** An admin of the current team who is also an instance admin (lib/teams/instance-admin.ts); 403 otherwise. */
export async function requireInstanceAdmin(): Promise<TeamContext> {
  const ctx = await requireAdmin();
  await checkInstanceAdmin(ctx);
  return ctx;
}
