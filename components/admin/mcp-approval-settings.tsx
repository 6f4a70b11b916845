"use client";
// How a server's tools are approved, beyond the policy selects: whether its read-only hints are
// trusted (annotations are the server's word, not a guarantee), a time limit for decisions, and per
// tool its effective policy and why, its rules on arguments (first match decides) and its own limit.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { CheckboxField, FormMessage } from "../ui/field";
import { Input } from "../ui/input";

export type ToolApprovalView = { policy: "ask" | "auto" | "deny" | "admin"; why: string; rules: string[]; decisionTimeoutMin: number | null };

const POLICY_WORDS: Record<ToolApprovalView["policy"], string> = {
  ask: "Asks the member",
  auto: "Runs without asking",
  deny: "Never offered",
  admin: "An admin approves",
};

export function ServerApprovalSettings({
  serverId,
  trustReadOnly,
  decisionTimeoutMin,
  trustAction,
  timeoutAction,
}: {
  serverId: string;
  trustReadOnly: boolean;
  decisionTimeoutMin: number | null;
  trustAction: FormAction;
  timeoutAction: FormAction;
}) {
  const [trustState, trustForm] = useActionState(trustAction, initialActionState);
  const [timeoutState, timeoutForm] = useActionState(timeoutAction, initialActionState);
  return (
    <div className="flex flex-col gap-4">
      <form action={trustForm} className="flex flex-col gap-1">
        <input type="hidden" name="serverId" value={serverId} />
        <input type="hidden" name="trustReadOnly" value={trustReadOnly ? "false" : "true"} />
        <CheckboxField
          key={String(trustReadOnly)}
          label="Run tools it marks read-only without asking"
          defaultChecked={trustReadOnly}
          aria-describedby="mcp-trust-hint"
          onChange={(e) => e.currentTarget.form?.requestSubmit()}
        />
        <p id="mcp-trust-hint" className="text-xs text-subtle">
          MCP annotations are hints from the server. Off (the default), every new tool asks, even one the server calls read-only.
        </p>
        <FormMessage message={trustState.message} ok={trustState.ok} />
      </form>
      <form action={timeoutForm} className="flex flex-col gap-1">
        <input type="hidden" name="serverId" value={serverId} />
        <label htmlFor="mcp-decision-timeout" className="text-sm font-medium">
          Time limit for a decision (minutes)
        </label>
        <div className="flex gap-2">
          <Input
            id="mcp-decision-timeout"
            name="minutes"
            inputMode="numeric"
            defaultValue={decisionTimeoutMin ?? ""}
            key={decisionTimeoutMin ?? ""}
            size="sm"
            className="w-28"
            aria-describedby="mcp-decision-timeout-hint"
          />
          <Button type="submit" variant="secondary" size="sm">
            Save limit
          </Button>
        </div>
        <p id="mcp-decision-timeout-hint" className="text-xs text-subtle">
          A call still waiting after this long is denied (“no decision within N minutes”), and the model is told. Empty: no limit.
        </p>
        <FormMessage message={timeoutState.message} ok={timeoutState.ok} />
      </form>
    </div>
  );
}

export type ToolApprovalActions = { addRule: FormAction; removeRule: FormAction; setTimeout: FormAction };

export function ToolApproval({
  serverId,
  toolId,
  toolName,
  view,
  actions,
}: {
  serverId: string;
  toolId: string;
  toolName: string;
  view: ToolApprovalView;
  actions: ToolApprovalActions;
}) {
  const [addState, addForm] = useActionState(actions.addRule, initialActionState);
  const [removeState, removeForm] = useActionState(actions.removeRule, initialActionState);
  const [timeoutState, timeoutForm] = useActionState(actions.setTimeout, initialActionState);
  const ids = (suffix: string) => `${toolId}-${suffix}`;
  return (
    <div className="flex flex-col gap-1 text-xs">
      <p data-effective-policy={view.policy}>
        <span className="font-medium">{POLICY_WORDS[view.policy]}</span>
        <span className="text-subtle"> — {view.why}</span>
        {view.rules.length > 0 && <span className="text-subtle"> Rules may decide otherwise for some calls.</span>}
      </p>
      {view.policy !== "deny" && (
        <details>
          <summary className="cursor-pointer text-accent-text">Rules and time limit{view.rules.length ? ` (${view.rules.length})` : ""}</summary>
          <div className="mt-2 flex flex-col gap-2">
            {view.rules.length > 0 && (
              <ol aria-label={`Rules of ${toolName}`} className="flex flex-col gap-1">
                {view.rules.map((label, i) => (
                  <li key={i} className="flex items-center gap-2">
                    <span className="font-mono">
                      {i + 1}. {label}
                    </span>
                    <form action={removeForm}>
                      <input type="hidden" name="serverId" value={serverId} />
                      <input type="hidden" name="toolId" value={toolId} />
                      <input type="hidden" name="index" value={i} />
                      <Button type="submit" variant="ghost" size="sm" aria-label={`Remove rule ${i + 1} of ${toolName}`}>
                        Remove
                      </Button>
                    </form>
                  </li>
                ))}
              </ol>
            )}
            <FormMessage message={removeState.message} ok={removeState.ok} />
            <form action={addForm} className="flex flex-wrap items-end gap-2" aria-label={`Add a rule to ${toolName}`}>
              <input type="hidden" name="serverId" value={serverId} />
              <input type="hidden" name="toolId" value={toolId} />
              <label htmlFor={ids("field")} className="flex flex-col gap-0.5">
                Field
                <Input id={ids("field")} name="field" size="sm" className="w-28" placeholder="path" />
              </label>
              <label htmlFor={ids("op")} className="flex flex-col gap-0.5">
                Condition
                <select id={ids("op")} name="op" className="h-8 rounded-md border border-line-strong bg-surface px-2">
                  <option value="matches">matches pattern</option>
                  <option value="not-matches">does not match pattern</option>
                  <option value="in">is one of (comma-separated)</option>
                  <option value="not-in">is not one of</option>
                  <option value="above">is above</option>
                  <option value="below">is below</option>
                </select>
              </label>
              <label htmlFor={ids("value")} className="flex flex-col gap-0.5">
                Value
                <Input id={ids("value")} name="value" size="sm" className="w-36" placeholder="^/srv/shared/" />
              </label>
              <label htmlFor={ids("then")} className="flex flex-col gap-0.5">
                Then
                <select id={ids("then")} name="then" className="h-8 rounded-md border border-line-strong bg-surface px-2">
                  <option value="ask">ask the member</option>
                  <option value="admin">an admin approves</option>
                  <option value="auto">run without asking</option>
                </select>
              </label>
              <Button type="submit" variant="secondary" size="sm">
                Add rule
              </Button>
            </form>
            <FormMessage message={addState.ok ? addState.message : (addState.message ?? Object.values(addState.fields ?? {})[0])} ok={addState.ok} />
            <form action={timeoutForm} className="flex items-end gap-2">
              <input type="hidden" name="serverId" value={serverId} />
              <input type="hidden" name="toolId" value={toolId} />
              <label htmlFor={ids("timeout")} className="flex flex-col gap-0.5">
                Time limit for this tool (minutes; empty: the server&apos;s)
                <Input
                  id={ids("timeout")}
                  name="minutes"
                  inputMode="numeric"
                  size="sm"
                  className="w-28"
                  defaultValue={view.decisionTimeoutMin ?? ""}
                  key={view.decisionTimeoutMin ?? ""}
                />
              </label>
              <Button type="submit" variant="secondary" size="sm">
                Save limit
              </Button>
            </form>
            <FormMessage message={timeoutState.message} ok={timeoutState.ok} />
          </div>
        </details>
      )}
    </div>
  );
}
