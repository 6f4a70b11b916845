// MCP Apps: a tool call a view asks for (tools/call through the host). It runs on the server the way a
// model's call does, never from the browser: only the chat's owner (a view in a chat shared read only
// cannot call), only a tool of the view's own server that the team enabled and the server still lists
// (not one it keeps for the model), with the member's own credential where the server takes one, and
// under the member's approval policy — the decider of a turn: the admin's policy, rules on arguments,
// "always allow" and "allow for this chat". A call the policy runs without asking runs; one that asks
// the member is answered 409 ApprovalNeeded, and the view's host asks the member under the view (the
// view's call waits) and sends it again `approved` once they said yes; one that waits for an admin, or
// is denied, is refused with a clear message (the view receives it as an error result, the member sees
// why under the view). Audited like a model's call, `via: "app"`, with who approved it.
import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { audit } from "../audit";
import { AppError, Invalid } from "../errors";
import { config as settings } from "../config";
import { classifyFailure } from "../mcp/failures";
import { acquire, callTool } from "../mcp/pool";
import { capResult, errorText, type CappedResult } from "../mcp/results";
import { chatAllowedTools } from "../tools/preferences";
import { offeredTool } from "../approvals/turn-policy";
import { approvalDecider, type CallVerdict } from "../approvals/turn-policy";
import type { TeamContext } from "../teams/team-context";
import { appOfCall, appServerConfig, unavailable } from "./mcp-apps";

/** `approved`: the member said yes to this call on the card under the view. */
export type AppToolCall = { name: string; arguments: Record<string, unknown>; approved?: boolean };

export async function appToolCall(ctx: TeamContext, chatId: string, toolCallId: string, call: AppToolCall): Promise<CappedResult> {
  const { chat, owner, server } = await appOfCall(ctx, chatId, toolCallId);
  if (!owner) throw new AppError("Forbidden", 403, "Only the chat's owner can use the tools of its apps.");
  const prisma = await db();
  const row = await prisma.mcpTool.findFirst({ where: { serverId: server.id, name: call.name, enabled: true } });
  const noSuchTool = () => new AppError("NoSuchTool", 404, `“${server.name}” has no tool “${call.name}” enabled in your team.`);
  if (!row) throw noSuchTool();
  const { config, credential } = await appServerConfig(ctx, server);
  const conn = await acquire(config, { signal: AbortSignal.timeout(config.connectTimeoutMs) }).catch((err: Error) => {
    throw unavailable(server.name, err.message);
  });
  const live = conn.tools.find((t) => t.name === call.name);
  if (!live) throw noSuchTool();
  if (live.modelOnly) throw new AppError("Forbidden", 403, `“${call.name}” is for the model only; the app cannot call it.`);

  // Who would have to approve this call (the member, an admin) is what the decider notes for it.
  const verdicts = new Map<string, CallVerdict>();
  const decide = await approvalDecider(ctx.user.id, { chatAllowed: chatAllowedTools(chat.allowedTools), verdicts });
  const decision = decide(offeredTool(call.name, server, row, live));
  if (!decision.offer) throw new AppError("Denied", 403, `Your team's policy does not allow “${call.name}”.`);
  const callId = `app_${randomUUID()}`;
  const asks =
    typeof decision.needsApproval === "function"
      ? await decision.needsApproval(call.arguments, { toolCallId: callId, messages: [] } as never)
      : !!decision.needsApproval;
  const verdict = asks ? (verdicts.get(callId) ?? { by: "member" }) : undefined;
  if (verdict?.by === "admin") {
    throw new AppError(
      "ApprovalRequired",
      403,
      `“${call.name}” waits for an admin's approval${verdict.rule ? ` (the rule “${verdict.rule}”)` : ""}, so an app cannot run it. Ask for it in the chat instead.`,
    );
  }
  if (verdict && !call.approved) throw new AppError("ApprovalNeeded", 409, `“${call.name}” asks for your approval before it runs.`);

  const result = await callTool(config, row.name, call.arguments, { timeoutMs: config.callTimeoutMs, signal: AbortSignal.timeout(config.callTimeoutMs) }).catch(
    (err) => {
      const failure = classifyFailure(err);
      if (failure.rpcCode === -32602) throw Invalid(failure.detail);
      throw unavailable(server.name, failure.message);
    },
  );
  // SDK servers answer arguments that do not fit the schema with an error result: the view's mistake.
  if (result.isError && /-32602|Input validation error|Invalid arguments/i.test(errorText(result))) throw Invalid(errorText(result));
  await audit(prisma, {
    teamId: chat.teamId,
    actorId: ctx.user.id,
    action: "mcp.tool.call",
    targetType: "mcp-server",
    targetId: server.id,
    data: { server: server.name, tool: row.name, via: "app", appOf: toolCallId, chatId: chat.id, credential, ...(verdict ? { approvedBy: "member" } : {}) },
  });
  return capResult(result, settings().PARLEY_MAX_TOOL_RESULT_CHARS);
}
