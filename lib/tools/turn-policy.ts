// Approval for the tools of one turn: each offered tool's effective policy (admin override, server
// default, annotations) and the member's "always allow" choices decide whether it is offered at all
// (`deny` is not) and whether a call waits for a person.
import { db } from "../db/client";
import { effectivePolicy, requiresApproval } from "./approval-policy";
import type { OfferedTool } from "./tool-set";

export type Decide = (tool: OfferedTool) => { offer: boolean; needsApproval?: boolean };

export async function approvalDecider(userId: string): Promise<Decide> {
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
    return { offer: true, needsApproval: requiresApproval(policy, allowed.has(tool.toolId)) };
  };
}
