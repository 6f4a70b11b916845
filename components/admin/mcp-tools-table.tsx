"use client";
// The server's tools as stored: enable or disable each one for the team (admins), set its approval
// policy, with its description and annotations.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { McpToolView } from "@/lib/mcp/servers";
import type { FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../ui/field";
import { AnnotationBadges } from "./mcp-test-panel";
import { PolicySelect } from "./policy-select";
import { ToolApproval, type ToolApprovalActions, type ToolApprovalView } from "./mcp-approval-settings";

type Approval = { views: Record<string, ToolApprovalView>; actions: ToolApprovalActions };

function ToolRow({ tool, serverId, action, policyAction, approval }: { tool: McpToolView; serverId: string; action: (form: FormData) => void; policyAction: (form: FormData) => void; approval?: Approval }) {
  return (
    <li className="flex items-start gap-3 px-3 py-2 text-sm" data-tool={tool.name}>
      <form action={action} className="pt-0.5">
        <input type="hidden" name="serverId" value={serverId} />
        <input type="hidden" name="toolId" value={tool.id} />
        <input type="hidden" name="enabled" value={tool.enabled ? "false" : "true"} />
        <input
          type="checkbox"
          checked={tool.enabled}
          aria-label={`Enable ${tool.name}`}
          onChange={(e) => e.currentTarget.form?.requestSubmit()}
          className="size-4 accent-accent"
        />
      </form>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-xs font-semibold">{tool.name}</span>
          <AnnotationBadges annotations={tool.annotations} />
        </span>
        {tool.description && <span className="text-zinc-600 dark:text-zinc-400">{tool.description}</span>}
        {approval?.views[tool.id] && <ToolApproval serverId={serverId} toolId={tool.id} toolName={tool.name} view={approval.views[tool.id]} actions={approval.actions} />}
      </div>
      <form action={policyAction} className="ml-auto shrink-0">
        <input type="hidden" name="serverId" value={serverId} />
        <input type="hidden" name="toolId" value={tool.id} />
        <PolicySelect
          value={tool.policy}
          defaultLabel="Default (server's, else ask)"
          aria-label={`Approval policy of ${tool.name}`}
          size="xs"
        />
      </form>
    </li>
  );
}

export function McpToolsTable({ serverId, tools, setEnabled, setPolicy, approval }: { serverId: string; tools: McpToolView[]; setEnabled: FormAction; setPolicy: FormAction; approval?: Approval }) {
  const [state, action] = useActionState(setEnabled, initialActionState);
  const [policyState, policyAction] = useActionState(setPolicy, initialActionState);
  if (!tools.length) return <p className="text-sm text-zinc-600 dark:text-zinc-400">No tools known yet: test the connection to list them.</p>;
  return (
    <div className="flex flex-col gap-2">
      <FormMessage message={state.ok ? undefined : state.message} />
      <FormMessage message={policyState.message} ok={policyState.ok} />
      <ul aria-label="Tools" className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {tools.map((t) => (
          <ToolRow key={t.id} tool={t} serverId={serverId} action={action} policyAction={policyAction} approval={approval} />
        ))}
      </ul>
    </div>
  );
}
