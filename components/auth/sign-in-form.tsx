"use client";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function SignInForm({ action, next }: { action: FormAction; next?: string }) {
  return (
    <ActionForm action={action} label="Sign in">
      {(state) => (
        <>
          {next && <input type="hidden" name="next" value={next} />}
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={state.values?.email}
            error={state.fields?.email}
          />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required maxLength={128} error={state.fields?.password} />
          <SubmitButton pendingText="Signing in…">Sign in</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
