"use client";
// The Approvals inbox: every call waiting for an admin of the team, with the chat around it (the
// member, their question, the input, the rule that asked, the time limit), and the decision —
// Approve, Deny with a reason, Edit and approve. Read again whenever the page's live channel says the
// waiting calls changed, so calls that arrive or that another admin decided show without a reload; a
// decision another admin made first is said so.
import { useCallback, useState } from "react";
import { Check, Pencil, X } from "lucide-react";
import type { InboxItem } from "@/lib/chat/team-approvals";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { FormMessage } from "../ui/field";
import { Json } from "../shared/large-output";
import { deadlineText } from "../shared/deadline-text";
import { InputEditor } from "../shared/input-editor";
import { announceApprovalsDecided } from "../shared/approval-events";
import { ApiError, fetchJson, serverMessage } from "../shared/fetch-json";
import { useLive } from "../shared/live";

type Outcome = { ok: boolean; message: string };

function InboxCard({ item, onDecided }: { item: InboxItem; onDecided: (id: string, outcome: Outcome) => void }) {
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string>();
  const send = async (body: { approved: boolean; reason?: string; input?: Record<string, unknown> }) => {
    setBusy(true);
    setError(undefined);
    try {
      await fetchJson("/api/approvals", { method: "POST", body: { approvalId: item.approvalId, ...body } });
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 409)
        return onDecided(item.approvalId, {
          ok: false,
          message: `${item.tool.label} for ${item.member}: already decided (by another admin, or the member moved on).`,
        });
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
    <li>
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
    </li>
  );
}

export function ApprovalsInbox({ initial }: { initial: InboxItem[] }) {
  const [items, setItems] = useState(initial);
  const [outcome, setOutcome] = useState<Outcome>();
  const reload = useCallback(async () => {
    const body = await fetchJson<{ items?: InboxItem[] }>("/api/approvals", { cache: "no-store" }).catch(() => undefined);
    if (body?.items) setItems(body.items);
  }, []);
  // Read again whenever the number of waiting calls changes (the page's live channel).
  useLive("approvals", () => void reload(), { replay: false });
  const decided = (id: string, o: Outcome) => {
    setItems((current) => current.filter((i) => i.approvalId !== id));
    setOutcome(o);
    announceApprovalsDecided();
  };
  return (
    <div className="flex flex-col gap-4">
      <p role="status" className="text-sm text-soft">
        {outcome ? outcome.message : ""}
      </p>
      {items.length === 0 ? (
        <p className="text-subtle">No tool call is waiting for an admin.</p>
      ) : (
        <ul className="flex flex-col gap-4" aria-label="Calls waiting for an admin">
          {items.map((item) => (
            <InboxCard key={item.approvalId} item={item} onDecided={decided} />
          ))}
        </ul>
      )}
    </div>
  );
}
