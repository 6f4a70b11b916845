// The team events of calls waiting for an admin (lib/notifications): approval.requested when a call is
// marked as waiting for an admin, approval.decided every way such a call ends (an admin's decision in
// the inbox or from a link, its time limit, a new message that supersedes it). Each is recorded in the
// transaction that changes the call, so a notification goes out exactly when the change was committed.
import type { Prisma } from "../db/generated/client";
import { recordTeamEvent } from "../notifications/events";
import { maskSecrets } from "../notifications/mask";
import type { ApprovalDecided, Person } from "../notifications/team-events";

type ToolMeta = { serverName?: string; toolName?: string; toolId?: string };

/** Records approval.requested for the call in `blockId` (now waiting for an admin). */
export async function recordApprovalRequested(tx: Prisma.TransactionClient, blockId: string): Promise<void> {
  const block = await tx.block.findUnique({
    where: { id: blockId },
    include: { message: { select: { chat: { select: { id: true, title: true, teamId: true, user: { select: { id: true, name: true, email: true } } } } } } },
  });
  if (!block?.approvalId) return;
  const chat = block.message.chat;
  const meta = (block.extras as { toolMetadata?: ToolMeta } | null)?.toolMetadata;
  const tool = meta?.toolId ? await tx.mcpTool.findFirst({ where: { id: meta.toolId, server: { teamId: chat.teamId } }, select: { serverId: true } }) : null;
  await recordTeamEvent(tx, {
    kind: "approval.requested",
    teamId: chat.teamId,
    approvalId: block.approvalId,
    chatId: chat.id,
    chatTitle: chat.title ?? "Untitled chat",
    member: chat.user,
    tool: {
      label: meta?.serverName ? `${meta.serverName} · ${meta.toolName}` : (block.toolName ?? "tool"),
      serverId: tool?.serverId ?? null,
      serverName: meta?.serverName ?? null,
      toolName: meta?.toolName ?? block.toolName ?? "tool",
    },
    input: maskSecrets(block.input ?? {}),
    rule: block.approvalRule,
    deadline: block.approvalDeadline?.toISOString() ?? null,
  });
}

/** Records approval.decided for a call that waited for an admin (calls the member decides have no event). */
export async function recordApprovalDecided(
  tx: Prisma.TransactionClient,
  call: { approvalId: string | null; approvalBy: string | null },
  at: { teamId: string; chatId: string },
  decision: { outcome: ApprovalDecided["outcome"]; via: ApprovalDecided["via"]; by: Person | null; reason: string | null },
): Promise<void> {
  if (call.approvalBy !== "admin" || !call.approvalId) return;
  await recordTeamEvent(tx, { kind: "approval.decided", teamId: at.teamId, approvalId: call.approvalId, chatId: at.chatId, ...decision });
}
