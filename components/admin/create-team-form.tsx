"use client";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function CreateTeamForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} label="Create team">
      {(state) => (
        <>
          <Field label="Team name" name="name" required maxLength={80} defaultValue={state.values?.name} error={state.fields?.name} />
          <SubmitButton pendingText="Creating…">Create team</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
