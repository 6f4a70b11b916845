// Approval for the tools of one turn: each offered tool's effective policy (admin override, server
// default, annotations) and the member's "always allow" choices decide whether it is offered at all
// (`deny` is not) and whether a call waits for a person.
import { db } from "../db/client";
import { effectivePolicy, requiresApproval } from "./approval-policy";
import type { Decide } from "./tool-set";

/**
 * `decidedCallIds`: calls a person approved that this turn now runs. They keep needing approval even
 * if the member chose "always allow" meanwhile: the AI SDK refuses to run an approval for a tool that
 * no longer needs one.
 */
export async function approvalDecider(userId: string, decidedCallIds: ReadonlySet<string> = new Set()): Promise<Decide> {
  const prisma = await db();
  const allowed = new Set(
    (await prisma.userToolPreference.findMany({ where: { userId, alwaysAllow: true }, select: { toolId: true } })).map((p) => p.toolId),
  );
  return (tool) => {
    const policy = effectivePolicy({
      toolPolicy: tool.toolPolicy,
      serverDefault: tool.serverDefaultPolicy,
      annotations: tool.annotations as { readOnlyHint?: boolean } | null,
    });
    if (policy === "deny") return { offer: false };
    const asks = requiresApproval(policy, allowed.has(tool.toolId));
    if (asks || !decidedCallIds.size) return { offer: true, needsApproval: asks };
    return { offer: true, needsApproval: (_input, { toolCallId }) => decidedCallIds.has(toolCallId) };
  };
}
