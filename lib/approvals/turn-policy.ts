// Approval for the tools of one turn: each offered tool's effective policy (admin override, server
// default, trusted read-only hints), its rules on arguments (approval-rules.ts, through the AI SDK's
// `needsApproval` function form), and the member's allowances ("always allow", "allow for this
// chat") decide whether it is offered at all (`deny` is not), whether a call waits, and for whom.
// What each waiting call waits for is kept in `verdicts` for the store (who decides, which rule
// asked, the time limit).
import type { Tool } from "ai";
import { db } from "../db/client";
import { approverFor, effectivePolicy, type ToolPolicy } from "./approval-policy";
import { firstMatch, readRules } from "./approval-rules";
import type { ToolPolicy as StoredPolicy } from "../db/generated/client";

/** A tool about to be offered, with what approval needs to decide its policy. */
export type OfferedTool = {
  modelName: string;
  serverId: string;
  serverName: string;
  toolId: string;
  toolName: string;
  annotations: Record<string, unknown> | null;
  toolPolicy: StoredPolicy | null;
  serverDefaultPolicy: StoredPolicy | null;
  /** The server's read-only hints are trusted (approval-policy.ts). */
  trustReadOnly?: boolean;
  /** Rules on arguments as stored (approval-rules.ts). */
  rules?: unknown;
  /** Minutes a call may wait for a decision (the tool's, else the server's); null: no limit. */
  decisionTimeoutMin?: number | null;
};

type ServerPolicyFields = { id: string; name: string; defaultPolicy: StoredPolicy | null; trustReadOnly: boolean; decisionTimeoutMin: number | null };
type ToolRowFields = { id: string; name: string; policy: StoredPolicy | null; rules: unknown; decisionTimeoutMin: number | null };

/** What approval decides on for a tool of a server, from their rows and the tool as the server lists it. */
export function offeredTool(modelName: string, server: ServerPolicyFields, row: ToolRowFields, live: { annotations?: unknown }): OfferedTool {
  return {
    modelName,
    serverId: server.id,
    serverName: server.name,
    toolId: row.id,
    toolName: row.name,
    annotations: (live.annotations as Record<string, unknown> | undefined) ?? null,
    toolPolicy: row.policy,
    serverDefaultPolicy: server.defaultPolicy,
    trustReadOnly: server.trustReadOnly,
    rules: row.rules,
    decisionTimeoutMin: row.decisionTimeoutMin ?? server.decisionTimeoutMin,
  };
}

/** Decides per offered tool whether to offer it, and its needsApproval. */
export type Decide = (tool: OfferedTool) => { offer: boolean; needsApproval?: NonNullable<Tool["needsApproval"]> };

/** What a waiting call waits for; or, `auto`, the rule that let a call run without asking. */
export type CallVerdict = { by: "member" | "admin" | "auto"; rule?: string; timeoutMin: number | null };

export type DeciderOptions = {
  /**
   * Calls a person approved that this turn now runs. They keep needing approval even if the member
   * chose "always allow" meanwhile: the AI SDK refuses to run an approval for a tool that no longer needs one.
   */
  decidedCallIds?: ReadonlySet<string>;
  /** Tool ids the member allowed for this chat ("Allow for this chat"). */
  chatAllowed?: readonly string[];
  /** Filled with the verdict of every call that waits, and of every call a rule ran without asking (by tool call id). */
  verdicts?: Map<string, CallVerdict>;
};

export async function approvalDecider(userId: string, opts: DeciderOptions = {}): Promise<Decide> {
  const prisma = await db();
  const decided = opts.decidedCallIds ?? new Set<string>();
  const allowed = new Set((await prisma.userToolPreference.findMany({ where: { userId, alwaysAllow: true }, select: { toolId: true } })).map((p) => p.toolId));
  for (const id of opts.chatAllowed ?? []) allowed.add(id);
  return (tool) => {
    const policy = effectivePolicy({
      toolPolicy: tool.toolPolicy,
      serverDefault: tool.serverDefaultPolicy,
      annotations: tool.annotations as { readOnlyHint?: boolean } | null,
      trustReadOnly: tool.trustReadOnly,
    });
    if (policy === "deny") return { offer: false };
    const rules = readRules(tool.rules);
    const memberAllows = allowed.has(tool.toolId);
    const timeoutMin = tool.decisionTimeoutMin ?? null;
    if (!rules.length && !decided.size && !opts.verdicts) return { offer: true, needsApproval: approverFor(policy, memberAllows) !== "none" };
    return {
      offer: true,
      needsApproval: (input, { toolCallId }) => {
        if (decided.has(toolCallId)) return true;
        const match = firstMatch(rules, input);
        // A rule that asks was set by an admin for this input: the member's allowances do not lift it.
        const by = match
          ? match.rule.then === "auto"
            ? "none"
            : match.rule.then === "admin"
              ? "admin"
              : "member"
          : approverFor(policy as Exclude<ToolPolicy, "deny">, memberAllows);
        if (by === "none") {
          // Named on the card and in the audit log (approvals.ts markApprovalRequests).
          if (match) opts.verdicts?.set(toolCallId, { by: "auto", rule: match.label, timeoutMin: null });
          return false;
        }
        opts.verdicts?.set(toolCallId, { by, rule: match?.label, timeoutMin });
        return true;
      },
    };
  };
}
