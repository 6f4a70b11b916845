"use client";
// Team members with their role (changeable), a password reset link for someone who forgot theirs
// (shown once, to copy and hand over, or, when email is on, emailed to their address), "Export chats" (all their chats in this team as a JSON download,
// for offboarding), and removal behind a confirmation dialog.
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Download } from "lucide-react";
import { Button } from "../ui/button";
import { CopyField } from "../ui/copy-field";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";

type Member = { id: string; role: "admin" | "member"; joinedAt: Date; user: { id: string; name: string; email: string } };

const ROLES = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

type Actions = { changeRole: FormAction; remove: FormAction; resetLink: FormAction; emailResetLink?: FormAction };

const noAction: FormAction = async () => initialActionState;

export function MembersTable({ teamId, members, currentUserId, actions }: { teamId: string; members: Member[]; currentUserId: string; actions: Actions }) {
  const [roleState, roleAction, rolePending] = useActionState(actions.changeRole, initialActionState);
  const [removeState, removeAction, removePending] = useActionState(actions.remove, initialActionState);
  const [resetState, resetAction, resetPending] = useActionState(actions.resetLink, initialActionState);
  const [emailState, emailAction, emailPending] = useActionState(actions.emailResetLink ?? noAction, initialActionState);
  const busy = rolePending || removePending || resetPending || emailPending;
  const latest = [resetState, emailState, removeState, roleState].find((s) => s.message);
  // A link made to hand over, or one whose email could not be sent.
  const shown = latest === resetState || latest === emailState ? latest : undefined;
  const resetUrl = shown?.data?.url;
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={busy ? undefined : latest?.message} ok={latest?.ok} />
      {resetUrl && (
        <CopyField
          label={`Password reset link for ${shown?.data?.name}`}
          url={resetUrl}
          hint={`Works once, for 24 hours. Give it to ${shown?.data?.name}: setting a new password through it signs them out everywhere.`}
        />
      )}
      <Table label="Team members">
        <TableHeader>
          <tr>
            <TableHead>Name</TableHead>
            <TableHead>Role</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {members.map((m) => (
            <MemberRow
              key={m.id}
              teamId={teamId}
              member={m}
              isSelf={m.user.id === currentUserId}
              actions={{ role: roleAction, remove: removeAction, reset: resetAction, emailReset: actions.emailResetLink ? emailAction : undefined }}
              busy={busy}
            />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

type RowActions = { role: (f: FormData) => void; remove: (f: FormData) => void; reset: (f: FormData) => void; emailReset?: (f: FormData) => void };

function MemberRow({ teamId, member, isSelf, actions, busy }: { teamId: string; member: Member; isSelf: boolean; actions: RowActions; busy: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const label = `${member.user.name}${isSelf ? " (you)" : ""}`;
  return (
    <TableRow data-testid="member-row">
      <TableCell>
        <p className="font-medium">{label}</p>
        <p className="text-xs text-subtle">{member.user.email}</p>
      </TableCell>
      <TableCell>
        <form action={actions.role}>
          <input type="hidden" name="membershipId" value={member.id} />
          <OptionSelect
            name="role"
            size="sm"
            className="w-28"
            aria-label={`Role of ${member.user.name}`}
            defaultValue={member.role}
            key={member.role}
            disabled={busy}
            options={ROLES}
            submitOnChange
          />
        </form>
      </TableCell>
      <TableCell>
        <div className="flex justify-end gap-2">
          <Button asChild variant="secondary" size="sm">
            <a href={`/api/teams/${teamId}/members/${member.id}/export`} download aria-label={`Export chats of ${member.user.name}`}>
              <Download className="size-4" aria-hidden /> Export chats
            </a>
          </Button>
          {!isSelf && (
            <form action={actions.reset}>
              <input type="hidden" name="membershipId" value={member.id} />
              <Button type="submit" variant="secondary" size="sm" disabled={busy} aria-label={`Reset password of ${member.user.name}`}>
                Reset password
              </Button>
              {actions.emailReset && (
                <Button
                  type="submit"
                  formAction={actions.emailReset}
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  className="ml-2"
                  aria-label={`Email a password reset link to ${member.user.name}`}
                >
                  Email reset link
                </Button>
              )}
            </form>
          )}
          <AlertDialog open={confirming} onOpenChange={setConfirming}>
            <AlertDialogTrigger asChild>
              <Button variant="secondary" size="sm" aria-label={`Remove ${member.user.name}`}>
                Remove
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogTitle>Remove {member.user.name}?</AlertDialogTitle>
              <AlertDialogDescription>They lose access to this team and its chats.</AlertDialogDescription>
              <form action={actions.remove} onSubmit={() => setConfirming(false)}>
                <input type="hidden" name="membershipId" value={member.id} />
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <Button type="submit" variant="danger" disabled={busy}>
                    Confirm removal
                  </Button>
                </AlertDialogFooter>
              </form>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </TableCell>
    </TableRow>
  );
}
