// Which providers a team sees: its own, and the operator's instance provider (teamId null, seeded
// from the environment). Queries about usable models go through these so both stay in step.
import type { Prisma } from "../db/generated/client";

/** Providers of `teamId` and the instance's own. */
export function visibleTo(teamId: string): Prisma.ProviderWhereInput {
  return { OR: [{ teamId }, { teamId: null }] };
}

/** Whether a provider row (with its teamId) is one `teamId` may use. */
export function isVisibleTo(provider: { teamId: string | null }, teamId: string): boolean {
  return provider.teamId === null || provider.teamId === teamId;
}
