"use client";
// Team members with their role (changeable) and removal behind a confirmation.
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";

type Member = { id: string; role: "admin" | "member"; joinedAt: Date; user: { id: string; name: string; email: string } };

export function MembersTable({ members, currentUserId, changeRole, remove }: { members: Member[]; currentUserId: string; changeRole: FormAction; remove: FormAction }) {
  const [roleState, roleAction, rolePending] = useActionState(changeRole, initialActionState);
  const [removeState, removeAction, removePending] = useActionState(remove, initialActionState);
  const message = (rolePending || removePending ? undefined : removeState.message ?? roleState.message) as string | undefined;
  const ok = removeState.message ? removeState.ok : roleState.ok;
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={message} ok={ok} />
      <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
        <table className="w-full text-sm">
          <thead className="bg-zinc-50 text-left text-xs uppercase tracking-wide text-zinc-500 dark:bg-zinc-900">
            <tr>
              <th scope="col" className="px-3 py-2">Name</th>
              <th scope="col" className="px-3 py-2">Role</th>
              <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <MemberRow key={m.id} member={m} isSelf={m.user.id === currentUserId} roleAction={roleAction} removeAction={removeAction} busy={rolePending || removePending} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function MemberRow({ member, isSelf, roleAction, removeAction, busy }: { member: Member; isSelf: boolean; roleAction: (f: FormData) => void; removeAction: (f: FormData) => void; busy: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const label = `${member.user.name}${isSelf ? " (you)" : ""}`;
  return (
    <tr className="border-t border-zinc-200 dark:border-zinc-800" data-testid="member-row">
      <td className="px-3 py-2">
        <p className="font-medium">{label}</p>
        <p className="text-xs text-zinc-500">{member.user.email}</p>
      </td>
      <td className="px-3 py-2">
        <form action={roleAction}>
          <input type="hidden" name="membershipId" value={member.id} />
          <select
            name="role"
            aria-label={`Role of ${member.user.name}`}
            defaultValue={member.role}
            key={member.role}
            disabled={busy}
            onChange={(e) => e.currentTarget.form?.requestSubmit()}
            className="h-8 rounded-md border border-zinc-300 bg-white px-2 dark:border-zinc-700 dark:bg-zinc-900"
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </form>
      </td>
      <td className="px-3 py-2 text-right">
        {confirming ? (
          <form action={removeAction} className="inline-flex gap-2">
            <input type="hidden" name="membershipId" value={member.id} />
            <Button type="submit" variant="danger" size="sm" disabled={busy}>
              Confirm removal
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </form>
        ) : (
          <Button variant="secondary" size="sm" onClick={() => setConfirming(true)} aria-label={`Remove ${member.user.name}`}>
            Remove
          </Button>
        )}
      </td>
    </tr>
  );
}
