// The Approvals inbox: tool calls of the team's members that wait for an admin (the layout checks
// that the caller is an admin; the inbox reads again by itself), and the team's choice of one-click
// links in approval emails.
import { ApprovalsInbox } from "@/components/approvals/approvals-inbox";
import { adminInbox } from "@/lib/approvals/team-approvals";
import { requireAdmin } from "@/app/_server/caller";
import { LinkSettings } from "@/components/approvals/link-settings";
import { emailEnabled } from "@/lib/email/mailer";
import { appBaseUrl, oneClickLinks } from "@/lib/notifications/approval-links";
import { publicUrl } from "@/lib/config";
import { setOneClickLinksAction } from "./actions";

export const metadata = { title: "Approvals · Parley" };

export default async function ApprovalsPage() {
  const ctx = await requireAdmin();
  const [items, oneClick] = await Promise.all([adminInbox(ctx), oneClickLinks(ctx.team.id)]);
  return (
    <section aria-labelledby="approvals-heading" className="flex flex-col gap-4">
      <h1 id="approvals-heading" className="text-xl font-semibold">
        Approvals
      </h1>
      <p className="text-sm text-soft">Tool calls that wait for an admin of the team. Your decision continues the member&apos;s answer in their chat.</p>
      <ApprovalsInbox initial={items} />
      <section aria-labelledby="approval-emails-heading" className="mt-6 flex flex-col gap-2">
        <h2 id="approval-emails-heading" className="font-semibold">
          Approval emails
        </h2>
        <p className="text-sm text-soft">
          Admins are emailed when a call waits (each MCP server&apos;s page names its approvers; each person can turn it off in their profile).
        </p>
        <LinkSettings oneClick={oneClick} action={setOneClickLinksAction} emailOn={emailEnabled()} unsetBase={publicUrl() ? undefined : appBaseUrl()} />
      </section>
    </section>
  );
}
