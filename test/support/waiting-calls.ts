// Test helper: a team with admins and a member whose chat ends with a tool call waiting for an admin,
// stored as a turn stores it (the answer's tool block in `approval-requested`, decided by an admin), and
// the approval.requested event the outbox would hand the channels for it. No model or MCP server needed.
import crypto from "node:crypto";
import { db } from "../../lib/db/client";
import type { Prisma } from "../../lib/db/generated/client";
import type { ApprovalRequested, StoredTeamEvent } from "../../lib/notifications/team-events";
import type { TeamContext } from "../../lib/teams/team-context";
import { makeUser } from "./test-app";

export type Person = { id: string; name: string; email: string };

/** A team with `admins` admins, a member, and an MCP server row (for its approvers). */
export async function approvalsTeam(admins = 2) {
  const prisma = await db();
  const team = await prisma.team.create({ data: { name: `Ops ${crypto.randomBytes(3).toString("hex")}` } });
  const people: Person[] = [];
  for (let i = 0; i < admins; i++) {
    const u = await makeUser(`Admin ${i + 1}`);
    await prisma.membership.create({ data: { teamId: team.id, userId: u.id, role: "admin" } });
    people.push({ id: u.id, name: u.name, email: u.email });
  }
  const m = await makeUser("Maria Member");
  await prisma.membership.create({ data: { teamId: team.id, userId: m.id, role: "member" } });
  const server = await prisma.mcpServer.create({ data: { teamId: team.id, name: "Billing", transport: "http", url: "http://127.0.0.1:9/mcp" } });
  const tool = await prisma.mcpTool.create({
    data: {
      serverId: server.id,
      name: "refund",
      inputSchema: { type: "object", properties: { order: { type: "number" }, amount: { type: "number" } }, required: ["order"], additionalProperties: false },
    },
  });
  const ctxOf = (p: Person, role: "admin" | "member"): TeamContext => {
    const t = { id: team.id, name: team.name, role };
    return { user: p, team: t, teams: [t] };
  };
  const member: Person = { id: m.id, name: m.name, email: m.email };
  return { team, admins: people, member, server, tool, ctxOf };
}

let n = 0;

/** A chat of `memberId` whose last answer has a call of Billing · refund waiting for an admin. */
export async function waitingCall(
  teamId: string,
  memberId: string,
  opts: { input?: Record<string, unknown>; deadline?: Date; title?: string; toolId?: string } = {},
) {
  const prisma = await db();
  const chat = await prisma.chat.create({ data: { teamId, userId: memberId, title: opts.title ?? `Refunds ${++n}` } });
  const q = await prisma.message.create({ data: { id: crypto.randomUUID(), chatId: chat.id, role: "user" } });
  await prisma.block.create({ data: { messageId: q.id, ordinal: 0, kind: "text", status: "done", text: "Refund order 42 please" } });
  const a = await prisma.message.create({ data: { id: crypto.randomUUID(), chatId: chat.id, role: "assistant", parentId: q.id } });
  const approvalId = `appr_${crypto.randomBytes(6).toString("hex")}`;
  const input = opts.input ?? { order: 42, amount: 19.5 };
  await prisma.block.create({
    data: {
      messageId: a.id,
      ordinal: 0,
      kind: "tool",
      status: "approval-requested",
      toolCallId: `call_${approvalId}`,
      toolName: "Billing__refund",
      input: input as Prisma.InputJsonValue,
      approvalId,
      approvalBy: "admin",
      approvalDeadline: opts.deadline ?? null,
      extras: { toolMetadata: { serverName: "Billing", toolName: "refund", ...(opts.toolId ? { toolId: opts.toolId } : {}) } },
    },
  });
  return { chatId: chat.id, chatTitle: chat.title!, approvalId, input };
}

/** The event the outbox hands the channels when that call starts waiting. */
export function requestedEvent(
  teamId: string,
  call: { chatId: string; chatTitle: string; approvalId: string; input: unknown },
  member: Person,
  serverId: string | null,
  deadline: string | null = null,
): StoredTeamEvent & ApprovalRequested {
  return {
    id: `ev_${crypto.randomBytes(6).toString("hex")}`,
    at: new Date().toISOString(),
    kind: "approval.requested",
    teamId,
    approvalId: call.approvalId,
    chatId: call.chatId,
    chatTitle: call.chatTitle,
    member,
    tool: { label: "Billing · refund", serverId, serverName: "Billing", toolName: "refund" },
    input: call.input,
    rule: null,
    deadline,
  };
}
