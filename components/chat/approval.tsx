"use client";
// The pending face of a tool call: what would run (tool, server, input) and the decision — Approve,
// Deny with an optional reason, or Always allow (for this member, where the policy lets them). The
// decision goes through a context so deep tool blocks reach the chat without prop drilling.
import { createContext, useContext, useState } from "react";
import { Check, ShieldCheck, X } from "lucide-react";
import { Button } from "../ui/button";
import { Input } from "../ui/input";

export type ApprovalDecision = { approvalId: string; approved: boolean; reason?: string; alwaysAllowToolId?: string };
export const ApprovalContext = createContext<((d: ApprovalDecision) => void) | undefined>(undefined);

export function ApprovalCard({ approvalId, toolLabel, toolId }: { approvalId: string; toolLabel: string; toolId?: string }) {
  const decide = useContext(ApprovalContext);
  const [reason, setReason] = useState("");
  const [sent, setSent] = useState(false);
  if (!decide) return <p className="text-sm text-zinc-600">Waiting for approval.</p>;
  const send = (d: Omit<ApprovalDecision, "approvalId">) => {
    setSent(true);
    decide({ approvalId, ...d });
  };
  return (
    <div className="flex flex-col gap-2 rounded-md bg-amber-50 p-3 dark:bg-amber-950" role="group" aria-label={`Approve ${toolLabel}?`}>
      <p className="text-sm font-medium text-amber-900 dark:text-amber-100">{toolLabel} wants to run with the input above. Allow it?</p>
      <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
        Reason for denying (optional)
        <Input size="sm" value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button variant="success" size="sm" disabled={sent} onClick={() => send({ approved: true })}>
          <Check className="size-4" aria-hidden /> Approve
        </Button>
        <Button variant="danger" size="sm" disabled={sent} onClick={() => send({ approved: false, reason: reason.trim() || undefined })}>
          <X className="size-4" aria-hidden /> Deny
        </Button>
        {toolId && (
          <Button variant="secondary" size="sm" disabled={sent} onClick={() => send({ approved: true, alwaysAllowToolId: toolId })}>
            <ShieldCheck className="size-4" aria-hidden /> Always allow
          </Button>
        )}
      </div>
    </div>
  );
}
