// A user's teams as every request sees them: each membership's team and role, oldest first. One shape
// for the two reads that produce it (teamsOf, and the session check of POST /api/chat, which reads it
// in the same query as the session).
import type { TeamRole } from "../db/generated/client";

export type TeamSummary = { id: string; name: string; role: TeamRole };

/** The memberships to read (a Prisma `findMany` argument, or a relation's in a `select`). */
export const membershipsQuery = {
  select: { role: true, team: { select: { id: true, name: true } } },
  orderBy: { createdAt: "asc" },
} as const;

export const toTeamSummaries = (rows: { role: TeamRole; team: { id: string; name: string } }[]): TeamSummary[] =>
  rows.map((m) => ({ id: m.team.id, name: m.team.name, role: m.role }));
