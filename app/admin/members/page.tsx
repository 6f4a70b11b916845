import { adminPage } from "@/app/_server/page-guards";
import { listOpenInvites } from "@/lib/teams/invites";
import { listMembers } from "@/lib/teams/members";
import { MembersTable } from "@/components/admin/members-table";
import { InvitePanel } from "@/components/admin/invite-panel";
import { RetentionForm } from "@/components/admin/retention-form";
import { retentionOf } from "@/lib/retention/retention";
import { emailEnabled } from "@/lib/email/mailer";
import { changeRoleAction, createInviteAction, createResetLinkAction, emailResetLinkAction, removeMemberAction, revokeInviteAction } from "../actions";

export const metadata = { title: "Members" };

export default async function MembersPage() {
  const ctx = await adminPage("/admin/members");
  const [members, invites, retention] = await Promise.all([listMembers(ctx.team.id), listOpenInvites(ctx), retentionOf(ctx.team.id)]);
  const emailOn = emailEnabled();
  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="members-heading">
        <h1 id="members-heading" className="mb-3 text-lg font-semibold">
          Members
        </h1>
        <MembersTable
          teamId={ctx.team.id}
          members={members}
          currentUserId={ctx.user.id}
          actions={{
            changeRole: changeRoleAction,
            remove: removeMemberAction,
            resetLink: createResetLinkAction,
            emailResetLink: emailOn ? emailResetLinkAction : undefined,
          }}
        />
      </section>
      <section aria-labelledby="invites-heading">
        <h2 id="invites-heading" className="mb-3 text-lg font-semibold">
          Invite people
        </h2>
        <InvitePanel invites={invites} create={createInviteAction} revoke={revokeInviteAction} emailOn={emailOn} />
      </section>
      <section aria-labelledby="retention-heading">
        <h2 id="retention-heading" className="mb-3 text-lg font-semibold">
          Retention
        </h2>
        <RetentionForm teamId={ctx.team.id} days={retention} />
      </section>
    </div>
  );
}
