"use client";
// The server's tools as stored, each with one control for how it is offered (its approval policy:
// "Never offer" is the way to switch a tool off; a tool switched off before shows as "Never offer"),
// its description and annotations.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { McpToolView } from "@/lib/mcp/servers";
import type { FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../ui/field";
import { AnnotationBadges } from "./mcp-test-panel";
import { PolicySelect } from "./policy-select";
import { ToolApproval, type ToolApprovalActions, type ToolApprovalView } from "./mcp-approval-settings";

type Approval = { views: Record<string, ToolApprovalView>; actions: ToolApprovalActions };

function ToolRow({
  tool,
  serverId,
  policyAction,
  approval,
}: {
  tool: McpToolView;
  serverId: string;
  policyAction: (form: FormData) => void;
  approval?: Approval;
}) {
  return (
    <li className="flex items-start gap-3 px-3 py-2 text-sm" data-tool={tool.name} data-offered={tool.enabled && tool.policy !== "deny"}>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-xs font-semibold">{tool.name}</span>
          <AnnotationBadges annotations={tool.annotations} />
        </span>
        {tool.description && <span className="text-subtle">{tool.description}</span>}
        {approval?.views[tool.id] && (
          <ToolApproval serverId={serverId} toolId={tool.id} toolName={tool.name} view={approval.views[tool.id]} actions={approval.actions} />
        )}
      </div>
      <form action={policyAction} className="ml-auto shrink-0">
        <input type="hidden" name="serverId" value={serverId} />
        <input type="hidden" name="toolId" value={tool.id} />
        <PolicySelect
          value={tool.enabled ? tool.policy : "deny"}
          defaultLabel="Default (server's, else ask)"
          aria-label={`Approval policy of ${tool.name}`}
          size="xs"
        />
      </form>
    </li>
  );
}

export function McpToolsTable({
  serverId,
  tools,
  setPolicy,
  approval,
}: {
  serverId: string;
  tools: McpToolView[];
  setPolicy: FormAction;
  approval?: Approval;
}) {
  const [policyState, policyAction] = useActionState(setPolicy, initialActionState);
  if (!tools.length) return <p className="text-sm text-subtle">No tools known yet: test the connection to list them.</p>;
  return (
    <div className="flex flex-col gap-2">
      <FormMessage message={policyState.message} ok={policyState.ok} />
      <ul aria-label="Tools" className="flex flex-col divide-y divide-line rounded-lg border border-line">
        {tools.map((t) => (
          <ToolRow key={t.id} tool={t} serverId={serverId} policyAction={policyAction} approval={approval} />
        ))}
      </ul>
    </div>
  );
}
