// A member's "always allow" choices: only for tools of their team whose policy is `ask` (never to
// lift `deny` or `admin`); "allow for this chat" likewise for one chat; revocable; cleared when an admin changes the tool's policy. Each change is audited.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import type { PrismaClient } from "../db/generated/client";
import { Conflict, NotFound } from "../errors";
import { teamToolRow } from "../mcp/tool-rows";
import type { TeamContext } from "../teams/team-context";
import { canAlwaysAllow, effectivePolicy } from "../approvals/approval-policy";

export const preferenceSchema = z.object({ toolId: z.string().min(1).max(64), alwaysAllow: z.boolean() });

export async function setAlwaysAllow(ctx: TeamContext, toolId: string, alwaysAllow: boolean): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId, "No such tool in your team.");
  if (alwaysAllow) {
    const policy = effectivePolicy({
      toolPolicy: tool.policy,
      serverDefault: tool.server.defaultPolicy,
      annotations: tool.annotations as { readOnlyHint?: boolean } | null,
      trustReadOnly: tool.server.trustReadOnly,
    });
    if (!canAlwaysAllow(policy))
      throw Conflict(
        policy === "deny"
          ? "This tool is denied by an admin and cannot be allowed."
          : policy === "admin"
            ? "An admin decides each call of this tool."
            : "This tool already runs without asking.",
      );
  }
  await audited(
    ctx,
    async (tx) => {
      if (!alwaysAllow) return void (await tx.userToolPreference.deleteMany({ where: { userId: ctx.user.id, toolId } }));
      await tx.userToolPreference.upsert({
        where: { userId_toolId: { userId: ctx.user.id, toolId } },
        create: { userId: ctx.user.id, toolId, alwaysAllow: true },
        update: { alwaysAllow: true },
      });
    },
    {
      action: alwaysAllow ? "tool.always-allow" : "tool.always-allow.revoke",
      targetType: "tool",
      targetId: toolId,
      data: { tool: tool.name, server: tool.server.name },
    },
  );
}

export async function listAlwaysAllowed(ctx: TeamContext) {
  const prisma = await db();
  const rows = await prisma.userToolPreference.findMany({
    where: { userId: ctx.user.id, alwaysAllow: true, tool: { server: { teamId: ctx.team.id } } },
    include: { tool: { include: { server: { select: { name: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => ({ toolId: r.toolId, toolName: r.tool.name, serverName: r.tool.server.name, since: r.createdAt }));
}

/**
 * An admin changed a tool's (or a server's default) policy: members' always-allow choices no longer
 * hold. `prisma` may be a transaction client, so the change and the clearing commit together.
 */
export async function clearAlwaysAllow(prisma: Pick<PrismaClient, "userToolPreference">, where: { toolId?: string; serverId?: string }): Promise<number> {
  const res = await prisma.userToolPreference.deleteMany({
    where: where.toolId ? { toolId: where.toolId } : { tool: { serverId: where.serverId } },
  });
  return res.count;
}

/** The tool ids a chat's member allowed for that chat only, as stored on the chat. */
export function chatAllowedTools(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === "string") : [];
}

/** "Allow for this chat": a tool whose policy is `ask` runs without asking in this one chat of the member's. */
export async function allowForChat(ctx: TeamContext, chatId: string, toolId: string): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId, "No such tool in your team.");
  const policy = effectivePolicy({
    toolPolicy: tool.policy,
    serverDefault: tool.server.defaultPolicy,
    annotations: tool.annotations as { readOnlyHint?: boolean } | null,
    trustReadOnly: tool.server.trustReadOnly,
  });
  if (!canAlwaysAllow(policy)) throw Conflict(policy === "auto" ? "This tool already runs without asking." : "An admin decides how this tool runs.");
  const prisma = await db();
  const chat = await prisma.chat.findFirst({ where: { id: chatId, teamId: ctx.team.id, userId: ctx.user.id }, select: { allowedTools: true } });
  if (!chat) throw NotFound("No such chat.");
  const allowed = chatAllowedTools(chat.allowedTools);
  if (allowed.includes(toolId)) return;
  await audited(ctx, (tx) => tx.chat.update({ where: { id: chatId }, data: { allowedTools: [...allowed, toolId] } }), {
    action: "tool.allow-chat",
    targetType: "tool",
    targetId: toolId,
    data: { tool: tool.name, server: tool.server.name, chatId },
  });
}
