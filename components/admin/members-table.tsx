"use client";
// Team members with their role (changeable) and removal behind a confirmation dialog.
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle, AlertDialogTrigger } from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";

type Member = { id: string; role: "admin" | "member"; joinedAt: Date; user: { id: string; name: string; email: string } };

const ROLES = [
  { value: "member", label: "Member" },
  { value: "admin", label: "Admin" },
];

export function MembersTable({ members, currentUserId, changeRole, remove }: { members: Member[]; currentUserId: string; changeRole: FormAction; remove: FormAction }) {
  const [roleState, roleAction, rolePending] = useActionState(changeRole, initialActionState);
  const [removeState, removeAction, removePending] = useActionState(remove, initialActionState);
  const message = (rolePending || removePending ? undefined : removeState.message ?? roleState.message) as string | undefined;
  const ok = removeState.message ? removeState.ok : roleState.ok;
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={message} ok={ok} />
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
            <MemberRow key={m.id} member={m} isSelf={m.user.id === currentUserId} roleAction={roleAction} removeAction={removeAction} busy={rolePending || removePending} />
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function MemberRow({ member, isSelf, roleAction, removeAction, busy }: { member: Member; isSelf: boolean; roleAction: (f: FormData) => void; removeAction: (f: FormData) => void; busy: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const label = `${member.user.name}${isSelf ? " (you)" : ""}`;
  return (
    <TableRow data-testid="member-row">
      <TableCell>
        <p className="font-medium">{label}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{member.user.email}</p>
      </TableCell>
      <TableCell>
        <form action={roleAction}>
          <input type="hidden" name="membershipId" value={member.id} />
          <OptionSelect name="role" size="sm" className="w-28" aria-label={`Role of ${member.user.name}`} defaultValue={member.role} key={member.role} disabled={busy} options={ROLES} submitOnChange />
        </form>
      </TableCell>
      <TableCell className="text-right">
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="secondary" size="sm" aria-label={`Remove ${member.user.name}`}>
              Remove
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>Remove {member.user.name}?</AlertDialogTitle>
            <AlertDialogDescription>They lose access to this team and its chats.</AlertDialogDescription>
            <form action={removeAction} onSubmit={() => setConfirming(false)}>
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
      </TableCell>
    </TableRow>
  );
}
