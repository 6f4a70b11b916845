"use client";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";
import { EmailField } from "../shared/account-fields";

export function SignInForm({ action, next }: { action: FormAction; next?: string }) {
  return (
    <ActionForm action={action} label="Sign in">
      {(state) => (
        <>
          {next && <input type="hidden" name="next" value={next} />}
          <EmailField state={state} />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required maxLength={128} error={state.fields?.password} />
          <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
