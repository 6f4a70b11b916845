// The admin's first steps in a team, for the checklist on the empty chat page: a model to chat with
// (a provider with an enabled model, the team's own or the instance's), an MCP server, and someone
// invited (an open invite link or a second member). Each step is done when the database says so.
import { db } from "../db/client";
import { visibleTo } from "../providers/scope";

export type FirstRunSteps = { provider: boolean; mcpServer: boolean; invited: boolean };

export async function firstRunSteps(teamId: string): Promise<FirstRunSteps> {
  const prisma = await db();
  const [model, server, members, invite] = await Promise.all([
    prisma.model.findFirst({ where: { enabled: true, provider: { enabled: true, ...visibleTo(teamId) } }, select: { id: true } }),
    prisma.mcpServer.findFirst({ where: { teamId }, select: { id: true } }),
    prisma.membership.count({ where: { teamId } }),
    prisma.invite.findFirst({ where: { teamId }, select: { id: true } }),
  ]);
  return { provider: Boolean(model), mcpServer: Boolean(server), invited: members > 1 || Boolean(invite) };
}
