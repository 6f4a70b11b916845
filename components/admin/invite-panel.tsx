"use client";
// Create single-use, expiring invite links (shown once, with a copy button) and revoke open ones.
import { useActionState, useState } from "react";
import { Check, Copy } from "lucide-react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

type Invite = { id: string; role: "admin" | "member"; expiresAt: Date; createdAt: Date; createdBy: { name: string } };

const selectClass = "h-10 rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900";

export function InvitePanel({ invites, create, revoke }: { invites: Invite[]; create: FormAction; revoke: FormAction }) {
  const [state, createAction] = useActionState(create, initialActionState);
  const [revokeState, revokeAction] = useActionState(revoke, initialActionState);
  const url = state.ok ? state.data?.url : undefined;
  return (
    <div className="flex flex-col gap-6">
      <form action={createAction} className="flex flex-wrap items-end gap-3" aria-label="New invite">
        <div className="flex flex-col gap-1">
          <label htmlFor="invite-role" className="text-sm font-medium">
            Role
          </label>
          <select id="invite-role" name="role" defaultValue="member" className={selectClass}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="invite-days" className="text-sm font-medium">
            Expires after
          </label>
          <select id="invite-days" name="days" defaultValue="7" className={selectClass}>
            <option value="1">1 day</option>
            <option value="7">7 days</option>
            <option value="30">30 days</option>
          </select>
        </div>
        <SubmitButton pendingText="Creating…">Create invite link</SubmitButton>
      </form>
      <FormMessage message={state.message} ok={state.ok} />
      {url && <CopyField url={url} />}
      <div>
        <h3 className="mb-2 text-sm font-semibold">Open invites</h3>
        <FormMessage message={revokeState.ok ? undefined : revokeState.message} />
        {invites.length === 0 ? (
          <p className="text-sm text-zinc-500">No open invites.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
            {invites.map((i) => (
              <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span>
                  {i.role === "admin" ? "Admin" : "Member"} invite by {i.createdBy.name}, expires {new Date(i.expiresAt).toLocaleString()}
                </span>
                <form action={revokeAction}>
                  <input type="hidden" name="inviteId" value={i.id} />
                  <Button type="submit" variant="secondary" size="sm">
                    Revoke
                  </Button>
                </form>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function CopyField({ url }: { url: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor="invite-url" className="text-sm font-medium">
        Invite link
      </label>
      <div className="flex gap-2">
        <input id="invite-url" readOnly value={url} className="h-10 min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-3 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900" onFocus={(e) => e.currentTarget.select()} />
        <Button
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(url).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
