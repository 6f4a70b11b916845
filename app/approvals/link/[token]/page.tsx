// The decision page of a link in an approval email (lib/notifications/approval-links.ts): the call as the
// inbox shows it, with Approve, Deny with a reason, and Edit. Sign-in first unless the team enabled
// one-click links; a refused link answers 404 (not a link, used, expired, decided) or 403 (someone
// else's) and changes nothing.
import { forbidden, notFound, redirect } from "next/navigation";
import { LinkDecision } from "@/components/approvals/link-decision";
import { linkState } from "./link-state";

export default async function ApprovalLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const state = await linkState(token);
  if (!state.ok) {
    if (state.status === 401) redirect(`/sign-in?next=${encodeURIComponent(`/approvals/link/${token}`)}`);
    if (state.status === 403) forbidden();
    notFound();
  }
  const { card } = state;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-soft">
        {card.item.member} asked for this call. You decide it as {card.approver}; the link works once, until{" "}
        {new Date(card.expiresAt).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })}.
      </p>
      <LinkDecision token={token} item={card.item} />
    </div>
  );
}
