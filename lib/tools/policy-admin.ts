// Admins set a tool's approval policy (ask / auto / deny, or back to the default). A change clears
// the members' "always allow" choices for that tool, and is audited.
import { z } from "zod";
import { audit } from "../audit";
import { db } from "../db/client";
import { NotFound } from "../errors";
import type { TeamContext } from "../teams/context";
import { clearAlwaysAllow } from "./preferences";

export const toolPolicySchema = z.object({ toolId: z.string().min(1).max(64), policy: z.enum(["default", "ask", "auto", "deny"]) });

export async function setToolPolicy(ctx: TeamContext, toolId: string, policy: z.infer<typeof toolPolicySchema>["policy"]): Promise<void> {
  const prisma = await db();
  const tool = await prisma.mcpTool.findFirst({ where: { id: toolId, server: { teamId: ctx.team.id } }, include: { server: { select: { name: true } } } });
  if (!tool) throw NotFound("No such tool.");
  const next = policy === "default" ? null : policy;
  if (tool.policy === next) return;
  await prisma.mcpTool.update({ where: { id: toolId }, data: { policy: next } });
  const cleared = await clearAlwaysAllow({ toolId });
  await audit(prisma, {
    teamId: ctx.team.id,
    actorId: ctx.user.id,
    action: "mcp.tool.policy",
    targetType: "mcp-tool",
    targetId: toolId,
    data: { server: tool.server.name, tool: tool.name, from: tool.policy ?? "default", to: policy, clearedAlwaysAllow: cleared },
  });
}
