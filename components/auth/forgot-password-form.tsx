"use client";
// The "Forgot password?" form: one address; the answer is the same whether or not it has an account,
// and replaces the form once given.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function ForgotPasswordForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} label="Ask for a password reset link">
      {(state) =>
        state.ok ? (
          <FormMessage ok message={state.message} />
        ) : (
          <>
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
            <SubmitButton pendingText="Sending…">Send reset link</SubmitButton>
          </>
        )
      }
    </ActionForm>
  );
}
