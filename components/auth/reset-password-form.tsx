"use client";
// The new password, set through an admin's reset link.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { NewPasswordField } from "../shared/account-fields";
import { SubmitButton } from "../ui/submit-button";

export function ResetPasswordForm({ action, token, email }: { action: FormAction; token: string; email: string }) {
  return (
    <ActionForm action={action} label="Choose a new password">
      {(state) => (
        <>
          <input type="hidden" name="token" value={token} />
          {/* For password managers: the account the new password belongs to. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <NewPasswordField error={state.fields?.newPassword} />
          <SubmitButton pendingText="Saving…">Set new password</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
