"use client";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { AccountFields } from "./account-fields";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function SetupForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} label="Set up Parley">
      {(state) => (
        <>
          <AccountFields state={state} />
          <Field label="Team name" name="teamName" required maxLength={80} defaultValue={state.values?.teamName} error={state.fields?.teamName} />
          <SubmitButton pendingText="Creating…">Create admin and team</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
