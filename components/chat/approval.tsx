"use client";
// The pending face of a tool call: what would run (tool, server, input) and the decision — Approve,
// Deny with an optional reason, or Always allow (for this member, where the policy lets them). The
// decision goes through a context so deep tool blocks reach the chat without prop drilling.
import { createContext, useContext, useState } from "react";
import { Check, ShieldCheck, X } from "lucide-react";

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
        <input
          value={reason}
          maxLength={1000}
          onChange={(e) => setReason(e.target.value)}
          className="h-8 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <button type="button" disabled={sent} onClick={() => send({ approved: true })} className="inline-flex h-8 items-center gap-1 rounded-md bg-green-700 px-3 text-sm font-medium text-white hover:bg-green-800 disabled:opacity-60">
          <Check className="size-4" aria-hidden /> Approve
        </button>
        <button type="button" disabled={sent} onClick={() => send({ approved: false, reason: reason.trim() || undefined })} className="inline-flex h-8 items-center gap-1 rounded-md bg-red-700 px-3 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-60">
          <X className="size-4" aria-hidden /> Deny
        </button>
        {toolId && (
          <button type="button" disabled={sent} onClick={() => send({ approved: true, alwaysAllowToolId: toolId })} className="inline-flex h-8 items-center gap-1 rounded-md border border-zinc-300 bg-white px-3 text-sm font-medium hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900">
            <ShieldCheck className="size-4" aria-hidden /> Always allow
          </button>
        )}
      </div>
    </div>
  );
}
