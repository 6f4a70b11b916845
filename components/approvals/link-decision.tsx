"use client";
// The decision page of a link in an approval email: the call as the inbox shows it (ApprovalCard), decided
// through POST /api/approvals/link with the link's token. Once decided, or when the link can no longer
// decide (used, expired, decided by someone else), the card gives way to what happened.
import { useState } from "react";
import Link from "next/link";
import type { InboxItem } from "@/lib/approvals/team-approvals";
import { FormMessage } from "../ui/field";
import { fetchJson } from "../shared/fetch-json";
import { ApprovalCard, type CardDecision, type Outcome } from "./approval-card";

export function LinkDecision({ token, item }: { token: string; item: InboxItem }) {
  const [outcome, setOutcome] = useState<Outcome>();
  const decide = (body: CardDecision) => fetchJson("/api/approvals/link", { method: "POST", body: { token, ...body } });
  if (outcome)
    return (
      <div className="flex flex-col gap-3">
        <FormMessage ok={outcome.ok} message={outcome.ok ? `${outcome.message} The member's answer goes on in their chat.` : outcome.message} />
        <Link href="/admin/approvals" className="text-sm text-accent-text underline">
          Open the Approvals inbox
        </Link>
      </div>
    );
  return <ApprovalCard item={item} decide={decide} onDecided={(_id, o) => setOutcome(o)} />;
}
