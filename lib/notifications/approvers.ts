// Who is asked, by email, to decide a call that waits for an admin: the approvers an admin named for the
// call's MCP server, else every admin of the team; of those, the people who still are admins and have
// not turned approval emails off in their profile. Also the team's choice of one-click links (a link in
// an approval email decides without signing in). Admins' changes are audited.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import { Forbidden, Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";

export type Approver = { id: string; name: string; email: string };

/** The team's admins, and which of them are the server's named approvers (none named: all are asked). */
export async function serverApprovers(ctx: TeamContext, serverId: string): Promise<{ admins: Approver[]; named: string[] }> {
  if (ctx.team.role !== "admin") throw Forbidden();
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id }, select: { approvers: { select: { userId: true } } } });
  if (!server) throw NotFound();
  const admins = await teamAdmins(ctx.team.id);
  const adminIds = new Set(admins.map((a) => a.id));
  return { admins, named: server.approvers.map((a) => a.userId).filter((id) => adminIds.has(id)) };
}

async function teamAdmins(teamId: string): Promise<Approver[]> {
  const prisma = await db();
  const rows = await prisma.membership.findMany({
    where: { teamId, role: "admin" },
    select: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => r.user);
}

export const approversSchema = z.object({
  serverId: z.string().min(1).max(100),
  approvers: z.array(z.string().min(1).max(100)).max(200),
});

/** Names the admins asked for the server's calls; an empty list: every admin of the team. */
export async function setServerApprovers(ctx: TeamContext, serverId: string, userIds: string[]): Promise<void> {
  if (ctx.team.role !== "admin") throw Forbidden();
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id }, select: { id: true, name: true } });
  if (!server) throw NotFound();
  const ids = [...new Set(userIds)];
  const admins = new Map((await teamAdmins(ctx.team.id)).map((a) => [a.id, a]));
  if (ids.some((id) => !admins.has(id))) throw Invalid("Only admins of the team can be approvers.");
  await audited(
    ctx,
    async (tx) => {
      await tx.mcpServerApprover.deleteMany({ where: { serverId } });
      if (ids.length) await tx.mcpServerApprover.createMany({ data: ids.map((userId) => ({ serverId, userId })) });
    },
    {
      action: "mcp.server.approvers",
      targetType: "mcp-server",
      targetId: serverId,
      data: { server: server.name, approvers: ids.length ? ids.map((id) => admins.get(id)!.name) : "every admin" },
    },
  );
}

/**
 * The people to email about a call of this server waiting in this team: the named approvers who are
 * still admins (if none of them is, every admin: a call must reach someone), minus those who turned
 * approval emails off.
 */
export async function approvalRecipients(teamId: string, serverId: string | null): Promise<Approver[]> {
  const prisma = await db();
  const admins = await teamAdmins(teamId);
  const named = serverId
    ? new Set((await prisma.mcpServerApprover.findMany({ where: { serverId }, select: { userId: true } })).map((a) => a.userId))
    : new Set();
  const chosen = admins.filter((a) => named.has(a.id));
  const asked = chosen.length ? chosen : admins;
  if (!asked.length) return [];
  const off = await prisma.notificationPreference.findMany({
    where: { userId: { in: asked.map((a) => a.id) }, approvalRequests: false },
    select: { userId: true },
  });
  const silent = new Set(off.map((p) => p.userId));
  return asked.filter((a) => !silent.has(a.id));
}

export const oneClickSchema = z.object({ oneClick: z.enum(["true", "false"]).transform((v) => v === "true") });

/** The team's choice: links in approval emails decide without signing in (on), or only for the signed-in approver (off, the default). */
export async function setOneClickLinks(ctx: TeamContext, oneClick: boolean): Promise<void> {
  if (ctx.team.role !== "admin") throw Forbidden();
  await audited(ctx, (tx) => tx.team.update({ where: { id: ctx.team.id }, data: { oneClickApprovalLinks: oneClick } }), {
    action: "team.approval-links",
    targetType: "team",
    targetId: ctx.team.id,
    data: { oneClick },
  });
}
