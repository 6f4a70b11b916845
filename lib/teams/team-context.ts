// The shape of "who acts, in which team": the signed-in user, the team a request acts in and all their
// teams. Types only, so every domain module can take a TeamContext without importing how one is made
// (lib/teams/context.ts) or read from a request (app/_server/caller.ts).
import type { SessionUser } from "../auth/session";
import type { TeamSummary } from "./memberships";

export type { TeamSummary };
export type TeamContext = { user: SessionUser; team: TeamSummary; teams: TeamSummary[] };
