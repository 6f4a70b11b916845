"use client";
// Create single-use, expiring invite links (shown once, with a copy button), emailed to an address when
// email is on (the panel says when it is off), and revoke open ones.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { CopyField } from "../ui/copy-field";
import { Field, FormField, FormMessage } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { SubmitButton } from "../ui/submit-button";

type Invite = { id: string; role: "admin" | "member"; email: string | null; expiresAt: Date; createdAt: Date; createdBy: { name: string } };

export function InvitePanel({ invites, create, revoke, emailOn }: { invites: Invite[]; create: FormAction; revoke: FormAction; emailOn: boolean }) {
  const [state, createAction] = useActionState(create, initialActionState);
  const [revokeState, revokeAction] = useActionState(revoke, initialActionState);
  // Shown also when the link was made but its email was not sent.
  const url = state.data?.url;
  return (
    <div className="flex flex-col gap-6">
      <form action={createAction} className="flex flex-wrap items-end gap-3" aria-label="New invite">
        {emailOn && (
          <Field
            label="Email (optional)"
            name="email"
            type="email"
            autoComplete="off"
            maxLength={254}
            className="w-64"
            defaultValue={state.ok ? undefined : state.values?.email}
            error={state.fields?.email}
          />
        )}
        <FormField label="Role">
          {(control) => (
            <OptionSelect
              {...control}
              name="role"
              defaultValue="member"
              className="w-32"
              options={[
                { value: "member", label: "Member" },
                { value: "admin", label: "Admin" },
              ]}
            />
          )}
        </FormField>
        <FormField label="Expires after">
          {(control) => (
            <OptionSelect
              {...control}
              name="days"
              defaultValue="7"
              className="w-32"
              options={[
                { value: "1", label: "1 day" },
                { value: "7", label: "7 days" },
                { value: "30", label: "30 days" },
              ]}
            />
          )}
        </FormField>
        <SubmitButton pendingText="Creating…">Create invite link</SubmitButton>
      </form>
      <p className="-mt-3 text-xs text-subtle">
        {emailOn
          ? "With an address, Parley emails the link, naming the team and you; the link is shown here too."
          : "Email is off on this server: copy the link and send it yourself."}
      </p>
      <FormMessage message={state.message} ok={state.ok} />
      {url && <CopyField label="Invite link" url={url} />}
      <div>
        <h3 className="mb-2 text-sm font-semibold">Open invites</h3>
        <FormMessage message={revokeState.ok ? undefined : revokeState.message} />
        {invites.length === 0 ? (
          <p className="text-sm text-subtle">No open invites.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line rounded-lg border border-line">
            {invites.map((i) => (
              <li key={i.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span>
                  {i.role === "admin" ? "Admin" : "Member"} invite {i.email ? `emailed to ${i.email} ` : ""}by {i.createdBy.name}, expires{" "}
                  {new Date(i.expiresAt).toLocaleString()}
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
