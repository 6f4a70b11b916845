// Admins set a tool's approval policy (ask / auto / deny, or back to the default). A change clears
// the members' "always allow" choices for that tool, and is audited.
import { z } from "zod";
import { audit } from "../audit";
import { db } from "../db/client";
import { NotFound } from "../errors";
import { teamToolRow } from "../mcp/tool-rows";
import type { TeamContext } from "../teams/context";
import { clearAlwaysAllow } from "./preferences";

export const toolPolicySchema = z.object({ toolId: z.string().min(1).max(64), policy: z.enum(["default", "ask", "auto", "deny"]) });

export async function setToolPolicy(ctx: TeamContext, toolId: string, policy: z.infer<typeof toolPolicySchema>["policy"]): Promise<void> {
  const prisma = await db();
  const tool = await teamToolRow(ctx.team.id, toolId);
  const next = policy === "default" ? null : policy;
  if (tool.policy === next) return;
  await prisma.$transaction(async (tx) => {
    await tx.mcpTool.update({ where: { id: toolId }, data: { policy: next } });
    const cleared = await clearAlwaysAllow(tx, { toolId });
    await audit(tx, {
      teamId: ctx.team.id,
      actorId: ctx.user.id,
      action: "mcp.tool.policy",
      targetType: "mcp-tool",
      targetId: toolId,
      data: { server: tool.server.name, tool: tool.name, from: tool.policy ?? "default", to: policy, clearedAlwaysAllow: cleared },
    });
  });
}

export const serverPolicySchema = z.object({ serverId: z.string().min(1).max(64), policy: z.enum(["default", "ask", "auto", "deny"]) });

export async function serverDefaultPolicy(ctx: TeamContext, serverId: string): Promise<"ask" | "auto" | "deny" | null> {
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id }, select: { defaultPolicy: true } });
  if (!server) throw NotFound("No such server.");
  return server.defaultPolicy;
}

/** The server's default for its tools without their own policy; clears always-allow for its tools. */
export async function setServerDefaultPolicy(ctx: TeamContext, serverId: string, policy: z.infer<typeof serverPolicySchema>["policy"]): Promise<void> {
  const prisma = await db();
  const server = await prisma.mcpServer.findFirst({ where: { id: serverId, teamId: ctx.team.id } });
  if (!server) throw NotFound("No such server.");
  const next = policy === "default" ? null : policy;
  if (server.defaultPolicy === next) return;
  await prisma.$transaction(async (tx) => {
    await tx.mcpServer.update({ where: { id: serverId }, data: { defaultPolicy: next } });
    const cleared = await clearAlwaysAllow(tx, { serverId });
    await audit(tx, {
      teamId: ctx.team.id,
      actorId: ctx.user.id,
      action: "mcp.server.policy",
      targetType: "mcp-server",
      targetId: serverId,
      data: { server: server.name, from: server.defaultPolicy ?? "default", to: policy, clearedAlwaysAllow: cleared },
    });
  });
}
