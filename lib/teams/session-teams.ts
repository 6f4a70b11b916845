// The signed-in user and their teams in one query, straight from the session cookie: what better-auth's
// getSession checks (the cookie's signature, lib/auth/session-token.ts, then a session row with that
// token that has not expired) plus the memberships, for routes whose start the caller waits on (POST
// /api/chat reads it with `sessionTeams` beside the chat it names: lib/turn/turn-input.ts).
// It lives with the teams because the memberships are theirs; lib/auth knows only who is calling.
import { db } from "../db/client";
import { signedSessionToken } from "../auth/session-token";
import type { SessionUser } from "../auth/session";
import { membershipsQuery, toTeamSummaries, type TeamSummary } from "./memberships";

export type SessionTeams = { user: SessionUser; teams: TeamSummary[] };

/** The user of a valid session cookie and their teams (oldest membership first), or null. */
export async function sessionWithTeams(headers: Headers): Promise<SessionTeams | null> {
  const token = await signedSessionToken(headers);
  return token ? sessionTeams(token) : null;
}

/** The user of the session with this token (the cookie's signature checked already) and their teams, or null when it has expired or never was. */
export async function sessionTeams(token: string): Promise<SessionTeams | null> {
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { token },
    select: {
      expiresAt: true,
      user: { select: { id: true, name: true, email: true, memberships: membershipsQuery } },
    },
  });
  if (!session || session.expiresAt < new Date()) return null;
  const { id, name, email, memberships } = session.user;
  return { user: { id, name, email }, teams: toTeamSummaries(memberships) };
}
