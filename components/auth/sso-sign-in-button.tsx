"use client";
// "Sign in with <provider>": starts single sign-on through a server action, which sends the browser
// to the provider's login page; a failure to start shows here as an alert.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { SubmitButton } from "../ui/submit-button";

export function SsoSignInButton({ action, name, next }: { action: FormAction; name: string; next?: string }) {
  return (
    <ActionForm action={action} label={`Sign in with ${name}`}>
      {() => (
        <>
          {next && <input type="hidden" name="next" value={next} />}
          <SubmitButton variant="secondary" pendingText={`Going to ${name}…`}>
            Sign in with {name}
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
