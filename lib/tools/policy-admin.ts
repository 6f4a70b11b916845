// Admins set a tool's approval policy (ask / auto / deny, or back to the default). A change clears
// the members' "always allow" choices for that tool, and is audited. Also a server's "on by default
// in new chats" (for members who have made no tool choice of their own yet).
import { z } from "zod";
import { audited } from "../audit";
import type { Prisma } from "../db/generated/client";
import { serverRow } from "../mcp/servers";
import { teamToolRow } from "../mcp/tool-rows";
import type { TeamContext } from "../teams/context";
import { clearAlwaysAllow } from "./preferences";

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
    from: tool.policy,
    to: policy,
    write: (tx, next) => tx.mcpTool.update({ where: { id: toolId }, data: { policy: next } }),
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
