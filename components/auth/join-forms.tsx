"use client";
// The two ways to accept an invite: a new account, or the account already signed in.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { AccountFields } from "../shared/account-fields";
import { SubmitButton } from "../ui/submit-button";

export function JoinWithNewAccountForm({ action, token, teamName }: { action: FormAction; token: string; teamName: string }) {
  return (
    <ActionForm action={action} label={`Create an account and join ${teamName}`}>
      {(state) => (
        <>
          <input type="hidden" name="token" value={token} />
          <AccountFields state={state} />
          <SubmitButton pendingText="Joining…">Create account and join</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function JoinAsCurrentUserForm({ action, token, teamName }: { action: FormAction; token: string; teamName: string }) {
  return (
    <ActionForm action={action} label={`Join ${teamName}`}>
      {() => (
        <>
          <input type="hidden" name="token" value={token} />
          <SubmitButton pendingText="Joining…">Join {teamName}</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
