"use client";
// One call waiting for an admin, as the Approvals inbox and an approval email's decision page show it:
// the tool, the member and their chat, their question, the input, the rule that asked and the time
// limit; and the decision — Approve, Deny with a reason, Edit and approve. Where the decision goes is
// the caller's (`decide` throws the server's refusal as an ApiError); a call decided by someone else
// first (409) or a link used up (410) ends the card with `gone`'s words.
import { useState } from "react";
import { Check, Pencil, X } from "lucide-react";
import type { InboxItem } from "@/lib/approvals/team-approvals";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { FormMessage } from "../ui/field";
import { Json } from "../shared/large-output";
import { deadlineText } from "../shared/deadline-text";
import { InputEditor } from "../shared/input-editor";
import { ApiError, serverMessage } from "../shared/fetch-json";

export type Outcome = { ok: boolean; message: string };
export type CardDecision = { approved: boolean; reason?: string; input?: Record<string, unknown> };

export function ApprovalCard({
  item,
  decide,
  onDecided,
  gone,
}: {
  item: InboxItem;
  decide: (body: CardDecision) => Promise<unknown>;
  onDecided: (id: string, outcome: Outcome) => void;
  /** What to say when the call can no longer be decided here (409, 410); the server's words by default. */
  gone?: (err: ApiError) => string;
}) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const send = async (body: CardDecision) => {
    setBusy(true);
    setError(undefined);
    try {
      await decide(body);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && (err.status === 409 || err.status === 410))
        return onDecided(item.approvalId, { ok: false, message: gone ? gone(err) : (serverMessage(err) ?? "This call can no longer be decided here.") });
      return setError(serverMessage(err) ?? "The decision could not be saved. Try again.");
    }
    setBusy(false);
    onDecided(item.approvalId, {
      ok: true,
      message: `${body.input ? "Edited and approved" : body.approved ? "Approved" : "Denied"}: ${item.tool.label} for ${item.member}.`,
    });
  };
  const headingId = `approval-${item.approvalId}`;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border border-line p-3 text-sm">
      <h2 id={headingId} className="font-semibold">
        {item.tool.label}
      </h2>
      <p className="text-soft">
        <span className="font-medium">{item.member}</span> in “{item.chatTitle}”,{" "}
        {new Date(item.requestedAt).toLocaleString([], { dateStyle: "short", timeStyle: "short" })}
      </p>
      {item.question && <blockquote className="whitespace-pre-wrap border-l-2 border-line-strong pl-2 text-soft">{item.question}</blockquote>}
      <Json value={item.input} label="Input" open />
      {item.rule && <p className="text-xs text-soft">Asked by the rule “{item.rule}”.</p>}
      {item.deadline && <p className="text-xs text-soft">Denied automatically unless decided {deadlineText(item.deadline)}.</p>}
      {editing ? (
        <InputEditor
          schema={item.tool.inputSchema}
          input={item.input}
          busy={busy}
          onCancel={() => setEditing(false)}
          onSubmit={(input) => void send({ approved: true, input })}
        />
      ) : (
        <>
          <label className="flex flex-col gap-1 text-xs text-soft">
            Reason for denying (optional)
            <Input size="sm" value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} />
          </label>
          <div className="flex flex-wrap gap-2">
            <Button variant="success" size="sm" disabled={busy} onClick={() => void send({ approved: true })}>
              <Check className="size-4" aria-hidden /> Approve
            </Button>
            <Button variant="danger" size="sm" disabled={busy} onClick={() => void send({ approved: false, reason: reason.trim() || undefined })}>
              <X className="size-4" aria-hidden /> Deny
            </Button>
            <Button variant="secondary" size="sm" disabled={busy} onClick={() => setEditing(true)}>
              <Pencil className="size-4" aria-hidden /> Edit
            </Button>
          </div>
        </>
      )}
      <FormMessage message={error} />
    </article>
  );
}
