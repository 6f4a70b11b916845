"use client";
// The Approvals inbox: every call waiting for an admin of the team, with the chat around it (the
// member, their question, the input, the rule that asked, the time limit), and the decision —
// Approve, Deny with a reason, Edit and approve. Read again whenever the page's live channel says the
// waiting calls changed, so calls that arrive or that another admin decided show without a reload; a
// decision another admin made first is said so. Each call is an ApprovalCard (approval-card.tsx).
import { useCallback, useState } from "react";
import type { InboxItem } from "@/lib/approvals/team-approvals";
import { announceApprovalsDecided } from "../shared/approval-events";
import { fetchJson } from "../shared/fetch-json";
import { useLive } from "../shared/live";
import { ApprovalCard, type CardDecision, type Outcome } from "./approval-card";

const decideInInbox = (item: InboxItem) => (body: CardDecision) =>
  fetchJson("/api/approvals", { method: "POST", body: { approvalId: item.approvalId, ...body } });

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
            <li key={item.approvalId}>
              <ApprovalCard
                item={item}
                decide={decideInInbox(item)}
                onDecided={decided}
                gone={() => `${item.tool.label} for ${item.member}: already decided (by another admin, or the member moved on).`}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
