// The tools a member may pick: the enabled tools of the team's servers, without the ones an admin set
// to "Never offer" (deny) and, while the server's session is live, without those it no longer lists or
// meant for its MCP app only (a turn never offers them); the server's status counts these same tools.
// Each is marked whether a call waits for the member ("asks first": the
// server's policy, after the member's always-allow). And what a chat starts with: the member's last
// choice in the team (remembered whenever they save a chat's tools), else the tools of the servers an
// admin turned on by default. A chat takes it when it is created (createChat); a chat row made
// without it takes it the first time its picker is opened.
import { db } from "../db/client";
import { Prisma, type Chat } from "../db/generated/client";
import { serversNeedingConnect } from "../identity/mcp-credentials";
import { liveTools, status, type McpStatus } from "../mcp/pool";
import type { TeamContext } from "../teams/team-context";
import { approverFor, effectivePolicy } from "../approvals/approval-policy";
import { readRules } from "../approvals/approval-rules";
import { readSelection, type ToolSelection } from "./selection";

/** `asksFirst`: a call may wait for a person; `approver`: who (an admin, or the member), `rules`: only some calls (rules on arguments). */
export type PickerTool = { id: string; name: string; description: string | null; asksFirst: boolean; approver?: "member" | "admin"; rules?: boolean };
export type PickerServer = {
  id: string;
  name: string;
  enabled: boolean;
  onByDefault: boolean;
  status: McpStatus;
  tools: PickerTool[];
  /** Members bring their own credential here ("oauth" or "key"); absent for a shared server. */
  memberAuth?: "oauth" | "key";
  /** This member has no usable credential yet (or it expired or was revoked): "Connect to use". */
  needsConnect?: boolean;
};

/** The team's servers with the tools this member may use, asks-first from the policy and their always-allow. */
export async function pickerServers(ctx: TeamContext): Promise<PickerServer[]> {
  const prisma = await db();
  const [servers, allowed, unconnected] = await Promise.all([
    prisma.mcpServer.findMany({
      where: { teamId: ctx.team.id },
      include: { tools: { where: { enabled: true }, orderBy: { name: "asc" } } },
      orderBy: { name: "asc" },
    }),
    prisma.userToolPreference.findMany({
      where: { userId: ctx.user.id, alwaysAllow: true, tool: { server: { teamId: ctx.team.id } } },
      select: { toolId: true },
    }),
    serversNeedingConnect(ctx.team.id, ctx.user.id),
  ]);
  const always = new Set(allowed.map((p) => p.toolId));
  return servers.map((s) => {
    const live = liveTools(s.id);
    const offerable = live && new Set(live.filter((t) => !t.appOnly).map((t) => t.name));
    const tools = s.tools.flatMap((t): PickerTool[] => {
      if (offerable && !offerable.has(t.name)) return [];
      const policy = effectivePolicy({
        toolPolicy: t.policy,
        serverDefault: s.defaultPolicy,
        annotations: t.annotations as { readOnlyHint?: boolean } | null,
        trustReadOnly: s.trustReadOnly,
      });
      if (policy === "deny") return [];
      const approver = approverFor(policy, always.has(t.id));
      const rules = readRules(t.rules).some((r) => r.then !== "auto");
      const asks = approver !== "none" || rules;
      return [
        {
          id: t.id,
          name: t.name,
          description: t.description,
          asksFirst: asks,
          ...(asks ? { approver: approver === "admin" || readRules(t.rules).some((r) => r.then === "admin") ? ("admin" as const) : ("member" as const) } : {}),
          ...(rules && approver === "none" ? { rules: true } : {}),
        },
      ];
    });
    const now = status(s.id, s.enabled);
    return {
      id: s.id,
      name: s.name,
      enabled: s.enabled,
      onByDefault: s.onByDefault,
      // "Connected · N tools" counts what this member is offered, not all the server lists.
      status: now.toolCount === undefined ? now : { ...now, toolCount: tools.length },
      ...(s.authMode !== "shared" ? { memberAuth: s.authMode === "oauth" ? ("oauth" as const) : ("key" as const), needsConnect: unconnected.has(s.id) } : {}),
      tools,
    };
  });
}

/** `selection` cut to what the member may use now (enabled servers, offered tools). */
export function usable(servers: PickerServer[], selection: ToolSelection): ToolSelection {
  const tools = new Set(servers.filter((s) => s.enabled).flatMap((s) => s.tools.map((t) => t.id)));
  const kept = selection.tools.filter((id) => tools.has(id));
  const servedBy = new Set(servers.filter((s) => s.tools.some((t) => kept.includes(t.id))).map((s) => s.id));
  return { servers: selection.servers.filter((id) => servedBy.has(id)), tools: kept };
}

/** What a new chat of this member starts with: their last choice in the team, else the team's defaults. */
export async function newChatSelection(ctx: TeamContext, servers?: PickerServer[]): Promise<ToolSelection> {
  const prisma = await db();
  const [membership, list] = await Promise.all([
    prisma.membership.findUnique({ where: { teamId_userId: { teamId: ctx.team.id, userId: ctx.user.id } }, select: { lastToolSelection: true } }),
    servers ?? pickerServers(ctx),
  ]);
  if (membership?.lastToolSelection != null) return usable(list, readSelection(membership.lastToolSelection));
  const defaults = list.filter((s) => s.enabled && s.onByDefault && s.tools.length);
  return { servers: defaults.map((s) => s.id), tools: defaults.flatMap((s) => s.tools.map((t) => t.id)) };
}

/** Remembers a member's choice (already checked to be of their team) for their next new chats. */
export async function rememberChoice(ctx: TeamContext, selection: ToolSelection): Promise<void> {
  const prisma = await db();
  await prisma.membership.updateMany({ where: { teamId: ctx.team.id, userId: ctx.user.id }, data: { lastToolSelection: selection } });
}

/**
 * A chat's selection. A chat without one (just created, by whatever path) takes the member's choice
 * for new chats now, and keeps it: a later choice in another chat does not change this one.
 */
export async function chatSelection(ctx: TeamContext, chat: Pick<Chat, "id" | "toolSelection">, servers?: PickerServer[]): Promise<ToolSelection> {
  if (chat.toolSelection != null) return readSelection(chat.toolSelection);
  const selection = await newChatSelection(ctx, servers);
  const prisma = await db();
  const where = { id: chat.id, teamId: ctx.team.id, userId: ctx.user.id };
  const { count } = await prisma.chat.updateMany({ where: { ...where, toolSelection: { equals: Prisma.DbNull } }, data: { toolSelection: selection } });
  if (count) return selection;
  // Saved meanwhile (the picker and the first message at once): that choice stands.
  return readSelection((await prisma.chat.findFirst({ where, select: { toolSelection: true } }))?.toolSelection);
}
