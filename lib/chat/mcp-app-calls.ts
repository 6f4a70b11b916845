// MCP Apps: a tool call a view asks for (tools/call through the host). It runs on the server the way a
// model's call does, never from the browser: only the chat's owner (a view in a chat shared read only
// cannot call), only a tool of the view's own server that the team enabled and the server still lists
// (not one it keeps for the model), with the member's own credential where the server takes one, and
// only when the member's approval policy would run it without asking — the decider of a turn: the
// admin's policy, rules on arguments, "always allow" and "allow for this chat". A call that would ask
// for approval, or is denied, is refused with a clear message (the view receives it as an error result):
// outside a turn there is no block for anyone to approve. Audited like a model's call, `via: "app"`.
import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { audit } from "../audit";
import { AppError, Invalid } from "../errors";
import { config as settings } from "../config";
import { classifyFailure } from "../mcp/failures";
import { acquire, callTool } from "../mcp/pool";
import { capResult, errorText, type CappedResult } from "../mcp/results";
import { chatAllowedTools } from "../tools/preferences";
import { offeredTool } from "../tools/tool-set";
import { approvalDecider } from "../tools/turn-policy";
import type { TeamContext } from "../teams/context";
import { appOfCall, appServerConfig, unavailable } from "./mcp-apps";

export type AppToolCall = { name: string; arguments: Record<string, unknown> };

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

  const decide = await approvalDecider(ctx.user.id, { chatAllowed: chatAllowedTools(chat.allowedTools) });
  const decision = decide(offeredTool(call.name, server, row, live));
  if (!decision.offer) throw new AppError("Denied", 403, `Your team's policy does not allow “${call.name}”.`);
  const asks =
    typeof decision.needsApproval === "function"
      ? await decision.needsApproval(call.arguments, { toolCallId: `app_${randomUUID()}`, messages: [] } as never)
      : !!decision.needsApproval;
  if (asks) throw new AppError("ApprovalRequired", 403, `“${call.name}” asks for approval before it runs, so an app cannot run it. Ask for it in the chat instead.`);

  const result = await callTool(config, row.name, call.arguments, { timeoutMs: config.callTimeoutMs, signal: AbortSignal.timeout(config.callTimeoutMs) }).catch((err) => {
    const failure = classifyFailure(err);
    if (failure.rpcCode === -32602) throw Invalid(failure.detail);
    throw unavailable(server.name, failure.message);
  });
  // SDK servers answer arguments that do not fit the schema with an error result: the view's mistake.
  if (result.isError && /-32602|Input validation error|Invalid arguments/i.test(errorText(result))) throw Invalid(errorText(result));
  await audit(prisma, {
    teamId: chat.teamId,
    actorId: ctx.user.id,
    action: "mcp.tool.call",
    targetType: "mcp-server",
    targetId: server.id,
    data: { server: server.name, tool: row.name, via: "app", appOf: toolCallId, chatId: chat.id, credential },
  });
  return capResult(result, settings().PARLEY_MAX_TOOL_RESULT_CHARS);
}
