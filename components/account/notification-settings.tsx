"use client";
// Profile -> Notifications: what this person wants to hear by email. Approval requests (admins only: a
// call waits for their approval; on by default) and decisions on their own calls that waited for an
// admin (off by default). Without email configured the choices are kept but nothing is sent: it says so.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import type { NotificationChoices } from "@/lib/notifications/preferences";
import { CheckboxField } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function NotificationSettings({
  action,
  choices,
  isAdmin,
  emailOn,
}: {
  action: FormAction;
  choices: NotificationChoices;
  isAdmin: boolean;
  emailOn: boolean;
}) {
  return (
    <ActionForm action={action} label="Email notifications" showSuccess>
      {() => (
        <>
          <input type="hidden" name="form" value="notifications" />
          {!emailOn && <p className="text-sm text-subtle">Email is off on this server: nothing is sent until the operator sets up SMTP.</p>}
          {isAdmin && (
            <div className="flex flex-col gap-1">
              <CheckboxField name="approvalRequests" label="Email me when a tool call waits for my approval" defaultChecked={choices.approvalRequests} />
              <p className="pl-6 text-xs text-subtle">With a link to approve, deny or edit it. Several within a few minutes come as one email.</p>
            </div>
          )}
          <div className="flex flex-col gap-1">
            <CheckboxField name="ownCallsDecided" label="Email me when an admin decides a tool call of mine" defaultChecked={choices.ownCallsDecided} />
            <p className="pl-6 text-xs text-subtle">For calls that wait for an admin: you hear the outcome even with Parley closed.</p>
          </div>
          {!isAdmin && <input type="hidden" name="approvalRequests" value={choices.approvalRequests ? "true" : "false"} />}
          <SubmitButton className="self-start" pendingText="Saving…">
            Save notifications
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
