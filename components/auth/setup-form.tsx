"use client";
// First-run setup: the admin's account, the team's name, and the set-up code when the page is opened
// from another machine than the server's own.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { AccountFields } from "../shared/account-fields";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function SetupForm({ action, askCode }: { action: FormAction; askCode: boolean }) {
  return (
    <ActionForm action={action} label="Set up Parley">
      {(state) => (
        <>
          <AccountFields state={state} />
          <Field label="Team name" name="teamName" required maxLength={80} defaultValue={state.values?.teamName} error={state.fields?.teamName} />
          {askCode && (
            <Field
              label="Set-up code"
              name="setupCode"
              autoComplete="off"
              required
              maxLength={40}
              defaultValue={state.values?.setupCode}
              hint="You opened Parley from another machine than its server. The code is in the server's log, on the line that starts with [setup]."
              error={state.fields?.setupCode}
            />
          )}
          <SubmitButton pendingText="Creating…">Create admin and team</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
