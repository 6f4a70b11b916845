// The Approvals inbox: tool calls of the team's members that wait for an admin (the layout checks
// that the caller is an admin; the inbox reads again by itself).
import { ApprovalsInbox } from "@/components/approvals/approvals-inbox";
import { adminInbox } from "@/lib/chat/team-approvals";
import { requireAdmin } from "@/app/_server/caller";

export const metadata = { title: "Approvals · Parley" };

export default async function ApprovalsPage() {
  const items = await adminInbox(await requireAdmin());
  return (
    <section aria-labelledby="approvals-heading" className="flex flex-col gap-4">
      <h1 id="approvals-heading" className="text-xl font-semibold">
        Approvals
      </h1>
      <p className="text-sm text-soft">Tool calls that wait for an admin of the team. Your decision continues the member&apos;s answer in their chat.</p>
      <ApprovalsInbox initial={items} />
    </section>
  );
}
