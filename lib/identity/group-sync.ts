// Memberships follow the provider's group claim at every single sign-on: in each team some rule
// names, the person's role becomes the highest one their groups give (admin over member), is added
// when missing (marked as granted by single sign-on), and is removed when no group gives one. Only
// memberships the rules granted change: those from setup, invites and admins are left alone, unless
// an instance admin lets the rules manage every membership. Teams no rule names are left alone too.
// A team's last admin is never demoted or removed by a claim: the change is skipped and recorded.
// One transaction, team rows locked, each change an audit event.
import { db } from "../db/client";
import type { Prisma, TeamRole } from "../db/generated/client";

type Tx = Prisma.TransactionClient;
export type GroupSyncChange = { teamId: string; from: TeamRole | null; to: TeamRole | null; kept?: "last-admin" };

/** The groups in a claim value: a list of strings, or one string. */
export function groupsFromClaims(claims: Record<string, unknown>, claim: string): string[] {
  let value: unknown = claims[claim];
  if (value === undefined && claim.includes(".")) {
    value = claim.split(".").reduce<unknown>((v, key) => (v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined), claims);
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string");
  return [];
}

function wantedRoles(rules: { group: string; teamId: string; role: TeamRole }[], groups: Set<string>): Map<string, TeamRole | null> {
  const wanted = new Map<string, TeamRole | null>();
  for (const r of rules) {
    if (!wanted.has(r.teamId)) wanted.set(r.teamId, null);
    if (!groups.has(r.group)) continue;
    if (wanted.get(r.teamId) !== "admin") wanted.set(r.teamId, r.role);
  }
  return wanted;
}

async function isLastAdmin(tx: Tx, teamId: string): Promise<boolean> {
  return (await tx.membership.count({ where: { teamId, role: "admin" } })) <= 1;
}

/** Marks the memberships group rules grant (Membership.source). */
export const SSO_SOURCE = "sso";

async function applyOne(tx: Tx, userId: string, teamId: string, to: TeamRole | null, manageAll: boolean): Promise<GroupSyncChange | null> {
  await tx.$queryRaw`SELECT "id" FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
  const current = await tx.membership.findUnique({ where: { teamId_userId: { teamId, userId } } });
  const from = current?.role ?? null;
  if (from === to) return null;
  if (current && current.source !== SSO_SOURCE && !manageAll) return null;
  if (from === "admin" && (await isLastAdmin(tx, teamId))) return { teamId, from, to, kept: "last-admin" };
  if (!current) await tx.membership.create({ data: { teamId, userId, role: to!, source: SSO_SOURCE } });
  else if (to === null) await tx.membership.delete({ where: { id: current.id } });
  else await tx.membership.update({ where: { id: current.id }, data: { role: to } });
  return { teamId, from, to };
}

/** Brings the user's memberships in line with their groups; returns what changed (or was kept). */
export async function syncGroups(userId: string, groups: string[]): Promise<GroupSyncChange[]> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const rules = await tx.ssoRule.findMany({ select: { group: true, teamId: true, role: true } });
    const manageAll = (await tx.ssoProvider.findFirst({ select: { rulesManageAll: true } }))?.rulesManageAll ?? false;
    const changes: GroupSyncChange[] = [];
    for (const [teamId, to] of wantedRoles(rules, new Set(groups))) {
      const change = await applyOne(tx, userId, teamId, to, manageAll);
      if (change) changes.push(change);
    }
    for (const c of changes) {
      await tx.auditEvent.create({
        data: {
          teamId: c.teamId,
          actorId: userId,
          action: c.kept ? "sso.membership.kept" : "sso.membership",
          targetType: "user",
          targetId: userId,
          data: { from: c.from, to: c.to, ...(c.kept ? { reason: c.kept } : {}) },
        },
      });
    }
    return changes;
  });
}
