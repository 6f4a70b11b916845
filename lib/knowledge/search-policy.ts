// The team's approval policy for knowledge searches in its chats, set by an admin (Admin → Knowledge):
//
//   auto    the default: a search of the team's own documents runs at once (and a chat may search
//           before each answer, "Search before each answer").
//   ask     each search waits for the member to approve it; a chat set to search before each answer
//           offers the tool instead, so nothing is searched without a yes.
//   admin   each search waits for an admin of the team, as an admin-only MCP tool's call does.
//   deny    knowledge is not searched in chats at all (the answer says so).
//
// Each change is an audit event.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import type { ToolPolicy } from "../approvals/approval-policy";

export const searchPolicySchema = z.object({ policy: z.enum(["auto", "ask", "admin", "deny"]) }).strict();

export async function knowledgeSearchPolicy(teamId: string): Promise<ToolPolicy> {
  const prisma = await db();
  return (await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { knowledgeSearchPolicy: true } })).knowledgeSearchPolicy;
}

/** Sets the policy (the caller is an admin of the team: the route checks). */
export async function setKnowledgeSearchPolicy(ctx: TeamContext, policy: ToolPolicy): Promise<void> {
  searchPolicySchema.parse({ policy });
  await audited(ctx, (tx) => tx.team.update({ where: { id: ctx.team.id }, data: { knowledgeSearchPolicy: policy } }), {
    action: "knowledge.search-policy",
    targetType: "team",
    targetId: ctx.team.id,
    data: { policy },
  });
}
