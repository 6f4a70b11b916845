"use client";
// The "Forgot password?" form: one address; the answer is the same whether or not it has an account,
// and replaces the form once given.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";
import { EmailField } from "../shared/account-fields";

export function ForgotPasswordForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} label="Ask for a password reset link">
      {(state) =>
        state.ok ? (
          <FormMessage ok message={state.message} />
        ) : (
          <>
            <EmailField state={state} />
            <SubmitButton pendingText="Sending…">Send reset link</SubmitButton>
          </>
        )
      }
    </ActionForm>
  );
}
