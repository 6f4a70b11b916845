"use client";
// The pending face of a tool call: what would run (tool, server, input) and the decision — Approve,
// Deny with an optional reason, Edit (and approve), Always allow, Allow for this chat (for this
// member, where the policy lets them). A call waiting for an admin shows "Waiting for an admin"
// instead, with the rule that asked and the time limit. The decision goes through a context so deep
// tool blocks reach the chat without prop drilling.
import { createContext, useContext, useState } from "react";
import { Check, Hourglass, MessageSquareLock, Pencil, ShieldCheck, X } from "lucide-react";
import type { ApprovalDetails } from "@/lib/messages/approval-details";
import { deadlineText } from "../shared/deadline-text";
import { InputEditor } from "../shared/input-editor";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { fetchJson } from "../shared/fetch-json";

export type ApprovalDecision = {
  approvalId: string;
  approved: boolean;
  reason?: string;
  input?: Record<string, unknown>;
  alwaysAllowToolId?: string;
  allowForChatToolId?: string;
};
export const ApprovalContext = createContext<((d: ApprovalDecision) => void) | undefined>(undefined);

function Why({ details }: { details?: ApprovalDetails }) {
  if (!details?.rule && !details?.deadline) return null;
  return (
    <p className="text-xs text-soft">
      {details.rule && <span data-approval-rule>Asked by the rule “{details.rule}”. </span>}
      {details.deadline && <span>Denied automatically unless decided {deadlineText(details.deadline)}.</span>}
    </p>
  );
}

export function ApprovalCard({
  approvalId,
  toolLabel,
  toolId,
  input,
  details,
}: {
  approvalId: string;
  toolLabel: string;
  toolId?: string;
  input?: unknown;
  details?: ApprovalDetails;
}) {
  const decide = useContext(ApprovalContext);
  const [reason, setReason] = useState("");
  const [sent, setSent] = useState(false);
  const [editing, setEditing] = useState<{ schema: unknown } | "loading">();
  if (details?.by === "admin")
    return (
      <div className="flex flex-col gap-1 rounded-md bg-info-soft p-3" role="status" data-approval="admin">
        <p className="flex items-center gap-1.5 text-sm font-medium text-on-info-soft">
          <MessageSquareLock className="size-4" aria-hidden /> Waiting for an admin
        </p>
        <p className="text-xs text-soft">An admin of your team decides whether {toolLabel} runs. The answer goes on here once they have.</p>
        <Why details={details} />
      </div>
    );
  if (!decide) return <p className="text-sm text-subtle">Waiting for approval.</p>;
  const send = (d: Omit<ApprovalDecision, "approvalId">) => {
    setSent(true);
    decide({ approvalId, ...d });
  };
  const edit = async () => {
    setEditing("loading");
    const body = toolId ? await fetchJson<{ inputSchema: unknown }>(`/api/tools/${toolId}/schema`).catch(() => undefined) : undefined;
    setEditing({ schema: body ? body.inputSchema : null });
  };
  return (
    <div className="flex flex-col gap-2 rounded-md bg-warning p-3" role="group" aria-label={`Approve ${toolLabel}?`}>
      <p className="text-sm font-medium text-warning-foreground">{toolLabel} wants to run with the input above. Allow it?</p>
      <Why details={details} />
      {editing && editing !== "loading" ? (
        <InputEditor
          schema={editing.schema}
          input={input}
          busy={sent}
          onCancel={() => setEditing(undefined)}
          onSubmit={(edited) => send({ approved: true, input: edited })}
        />
      ) : (
        <>
          <label className="flex flex-col gap-1 text-xs text-soft">
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
              <Button variant="secondary" size="sm" disabled={sent || editing === "loading"} onClick={() => void edit()}>
                <Pencil className="size-4" aria-hidden /> {editing === "loading" ? "Loading…" : "Edit"}
              </Button>
            )}
            {toolId && !details?.rule && (
              <>
                <Button variant="secondary" size="sm" disabled={sent} onClick={() => send({ approved: true, allowForChatToolId: toolId })}>
                  <Hourglass className="size-4" aria-hidden /> Allow for this chat
                </Button>
                <Button variant="secondary" size="sm" disabled={sent} onClick={() => send({ approved: true, alwaysAllowToolId: toolId })}>
                  <ShieldCheck className="size-4" aria-hidden /> Always allow
                </Button>
              </>
            )}
          </div>
        </>
      )}
    </div>
  );
}

type Waiting = { state?: string; approval?: { id: string } & ApprovalDetails };

/** The calls of a message that wait for this member (not for an admin). */
export function waitingForMember(parts: readonly unknown[]): string[] {
  return (parts as Waiting[]).filter((p) => p.state === "approval-requested" && p.approval && p.approval.by !== "admin").map((p) => p.approval!.id);
}

/** "Approve all" / "Deny all" for a step with several calls waiting for this member. */
export function BatchDecisions({ approvalIds }: { approvalIds: string[] }) {
  const decide = useContext(ApprovalContext);
  const [sent, setSent] = useState(false);
  if (!decide || approvalIds.length < 2) return null;
  const all = (approved: boolean) => {
    setSent(true);
    for (const approvalId of approvalIds) decide({ approvalId, approved });
  };
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md bg-warning p-2 text-sm"
      role="group"
      aria-label={`${approvalIds.length} tool calls wait for you`}
    >
      <span className="text-warning-foreground">{approvalIds.length} tool calls wait for you.</span>
      <Button variant="success" size="sm" disabled={sent} onClick={() => all(true)}>
        <Check className="size-4" aria-hidden /> Approve all
      </Button>
      <Button variant="danger" size="sm" disabled={sent} onClick={() => all(false)}>
        <X className="size-4" aria-hidden /> Deny all
      </Button>
    </div>
  );
}
