// Admins set a tool's approval policy (ask / auto / deny, or back to the default). A change clears
// the members' "always allow" choices for that tool, and is audited. Also a server's "on by default
// in new chats" (for members who have made no tool choice of their own yet).
import { z } from "zod";
import { audited } from "../audit";
import type { Prisma } from "../db/generated/client";
import { serverRow } from "../mcp/servers";
import { teamToolRow } from "../mcp/tool-rows";
import type { TeamContext } from "../teams/team-context";
import { clearAlwaysAllow } from "./preferences";
import { readRules, ruleLabel, ruleSchema, rulesSchema, type ApprovalRule } from "../approvals/approval-rules";

const policyChoice = z.enum(["default", "ask", "auto", "deny", "admin"]);
type PolicyChoice = z.infer<typeof policyChoice>;

export const toolPolicySchema = z.object({ toolId: z.string().min(1).max(64), policy: policyChoice });
export const onByDefaultSchema = z.object({ serverId: z.string().min(1).max(64), onByDefault: z.enum(["true", "false"]).transform((v) => v === "true") });
export const serverPolicySchema = z.object({ serverId: z.string().min(1).max(64), policy: policyChoice });

type PolicyChange = {
  from: "ask" | "auto" | "deny" | "admin" | null;
  to: PolicyChoice;
  /** Stores the new policy (null: back to the default). */
  write(tx: Prisma.TransactionClient, next: "ask" | "auto" | "deny" | "admin" | null): Promise<unknown>;
  /** Whose always-allow choices the change clears. */
  clears: { toolId: string } | { serverId: string };
  audit: { action: string; targetType: string; targetId: string; data: Record<string, unknown> };
};

/** Writes a policy that changed, clears the always-allow choices it covers and audits it, in one transaction. */
async function changePolicy(ctx: TeamContext, change: PolicyChange): Promise<void> {
  const next = change.to === "default" ? null : change.to;
  if (change.from === next) return;
  await audited(
    ctx,
    async (tx) => {
      await change.write(tx, next);
      return clearAlwaysAllow(tx, change.clears);
    },
    (cleared) => ({ ...change.audit, data: { ...change.audit.data, from: change.from ?? "default", to: change.to, clearedAlwaysAllow: cleared } }),
  );
}

export async function setToolPolicy(ctx: TeamContext, toolId: string, policy: PolicyChoice): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId);
  await changePolicy(ctx, {
    from: tool.enabled ? tool.policy : "deny", // switched off: it reads "Never offer"
    to: policy,
    // The policy is the tool's one control: a tool switched off before (enabled: false) is offered again by its policy.
    write: (tx, next) => tx.mcpTool.update({ where: { id: toolId }, data: { policy: next, enabled: true } }),
    clears: { toolId },
    audit: { action: "mcp.tool.policy", targetType: "mcp-tool", targetId: toolId, data: { server: tool.server.name, tool: tool.name } },
  });
}

/** The server's default for its tools without their own policy; clears always-allow for its tools. */
export async function setServerDefaultPolicy(ctx: TeamContext, serverId: string, policy: PolicyChoice): Promise<void> {
  const server = await serverRow(ctx.team.id, serverId);
  await changePolicy(ctx, {
    from: server.defaultPolicy,
    to: policy,
    write: (tx, next) => tx.mcpServer.update({ where: { id: serverId }, data: { defaultPolicy: next } }),
    clears: { serverId },
    audit: { action: "mcp.server.policy", targetType: "mcp-server", targetId: serverId, data: { server: server.name } },
  });
}

export async function setServerOnByDefault(ctx: TeamContext, serverId: string, onByDefault: boolean): Promise<void> {
  const server = await serverRow(ctx.team.id, serverId);
  if (server.onByDefault === onByDefault) return;
  await audited(ctx, (tx) => tx.mcpServer.update({ where: { id: serverId }, data: { onByDefault } }), {
    action: onByDefault ? "mcp.server.default-on" : "mcp.server.default-off",
    targetType: "mcp-server",
    targetId: serverId,
    data: { server: server.name },
  });
}

// ---------------------------------------------------------------- trusted hints, time limits, rules

export const trustReadOnlySchema = z.object({ serverId: z.string().min(1).max(64), trustReadOnly: z.enum(["true", "false"]).transform((v) => v === "true") });

/** The admin's opt-in: tools the server marks read-only run without asking (annotations are hints otherwise). */
export async function setServerTrustReadOnly(ctx: TeamContext, serverId: string, trustReadOnly: boolean): Promise<void> {
  const server = await serverRow(ctx.team.id, serverId);
  if (server.trustReadOnly === trustReadOnly) return;
  await audited(ctx, (tx) => tx.mcpServer.update({ where: { id: serverId }, data: { trustReadOnly } }), {
    action: trustReadOnly ? "mcp.server.trust-read-only" : "mcp.server.distrust-read-only",
    targetType: "mcp-server",
    targetId: serverId,
    data: { server: server.name },
  });
}

/** Minutes a call may wait for a decision: empty for no limit, 1 minute to 7 days. */
const minutes = z
  .string()
  .trim()
  .max(6)
  .transform((v, c) => {
    if (v === "") return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 10_080) {
      c.addIssue({ code: "custom", message: "Give whole minutes from 1 to 10080 (7 days), or leave it empty for no limit." });
      return z.NEVER;
    }
    return n;
  });
export const serverTimeoutSchema = z.object({ serverId: z.string().min(1).max(64), minutes });
export const toolTimeoutSchema = z.object({ toolId: z.string().min(1).max(64), minutes });

export async function setServerDecisionTimeout(ctx: TeamContext, serverId: string, limit: number | null): Promise<void> {
  const server = await serverRow(ctx.team.id, serverId);
  if (server.decisionTimeoutMin === limit) return;
  await audited(ctx, (tx) => tx.mcpServer.update({ where: { id: serverId }, data: { decisionTimeoutMin: limit } }), {
    action: "mcp.server.decision-timeout",
    targetType: "mcp-server",
    targetId: serverId,
    data: { server: server.name, from: server.decisionTimeoutMin, to: limit },
  });
}

export async function setToolDecisionTimeout(ctx: TeamContext, toolId: string, limit: number | null): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId);
  if (tool.decisionTimeoutMin === limit) return;
  await audited(ctx, (tx) => tx.mcpTool.update({ where: { id: toolId }, data: { decisionTimeoutMin: limit } }), {
    action: "mcp.tool.decision-timeout",
    targetType: "mcp-tool",
    targetId: toolId,
    data: { server: tool.server.name, tool: tool.name, from: tool.decisionTimeoutMin, to: limit },
  });
}

/** A rule as the admin form sends it: the value is text (a list is comma-separated, a number a number). */
export const ruleFormSchema = z
  .object({ toolId: z.string().min(1).max(64), field: z.string().max(200), op: z.string().max(20), value: z.string().max(2000), then: z.string().max(10) })
  .transform((f, c) => {
    const value =
      f.op === "in" || f.op === "not-in"
        ? f.value
            .split(",")
            .map((v) => v.trim())
            .filter(Boolean)
        : f.op === "above" || f.op === "below"
          ? f.value.trim() === ""
            ? NaN
            : Number(f.value)
          : f.value;
    const rule = ruleSchema.safeParse({ field: f.field, op: f.op, value, then: f.then });
    if (!rule.success) {
      for (const issue of rule.error.issues)
        c.addIssue({ code: "custom", message: issue.path[0] === "value" && typeof value === "number" ? "Give a number." : issue.message, path: issue.path });
      return z.NEVER;
    }
    return { toolId: f.toolId, rule: rule.data };
  });
export const removeRuleSchema = z.object({ toolId: z.string().min(1).max(64), index: z.coerce.number().int().min(0).max(100) });

async function changeRules(
  ctx: TeamContext,
  toolId: string,
  change: (rules: ApprovalRule[]) => ApprovalRule[],
  what: (rules: ApprovalRule[]) => Record<string, string>,
): Promise<void> {
  const tool = await teamToolRow(ctx.team.id, toolId);
  const before = readRules(tool.rules);
  const after = rulesSchema.parse(change(before));
  await audited(ctx, (tx) => tx.mcpTool.update({ where: { id: toolId }, data: { rules: after } }), {
    action: "mcp.tool.rules",
    targetType: "mcp-tool",
    targetId: toolId,
    data: { server: tool.server.name, tool: tool.name, ...what(before) },
  });
}

/** Adds a rule after the tool's others (the first that matches decides). */
export async function addToolRule(ctx: TeamContext, toolId: string, rule: ApprovalRule): Promise<void> {
  await changeRules(
    ctx,
    toolId,
    (rules) => [...rules, rule],
    () => ({ added: ruleLabel(rule) }),
  );
}

export async function removeToolRule(ctx: TeamContext, toolId: string, index: number): Promise<void> {
  await changeRules(
    ctx,
    toolId,
    (rules) => rules.filter((_, i) => i !== index),
    (rules) => ({ removed: rules[index] ? ruleLabel(rules[index]) : "" }),
  );
}
