"use client";
// The forms of the profile page: name, password, default model and personal instructions. Each is a
// server action form (ActionForm): its message in a live region, its field errors on the fields.
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import type { PickerGroup } from "@/lib/providers/models";
import { Field, FormField, TextareaField } from "../ui/field";
import { OptionSelect } from "../ui/select";
import { NewPasswordField } from "../shared/account-fields";
import { SubmitButton } from "../ui/submit-button";

export function NameForm({ action, name }: { action: FormAction; name: string }) {
  return (
    <ActionForm action={action} label="Your name" showSuccess>
      {(state) => (
        <>
          <Field label="Name" name="name" autoComplete="name" required maxLength={100} defaultValue={state.values?.name ?? name} error={state.fields?.name} />
          <SubmitButton className="self-start" pendingText="Saving…">
            Save name
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function PasswordForm({ action }: { action: FormAction }) {
  return (
    <ActionForm action={action} label="Change password" showSuccess>
      {(state) => (
        <>
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            maxLength={128}
            error={state.fields?.currentPassword}
          />
          <NewPasswordField error={state.fields?.newPassword} />
          <SubmitButton className="self-start" pendingText="Changing…">
            Change password
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function PersonalModelForm({ action, groups, value, teamDefault }: { action: FormAction; groups: PickerGroup[]; value: string; teamDefault?: string }) {
  if (!groups.length) return <p className="text-sm text-subtle">No model is available in this team yet.</p>;
  const options = [
    { value: "", label: teamDefault ? `Team default (${teamDefault})` : "Team default" },
    ...groups.map((g) => ({ label: g.provider, options: g.models.map((m) => ({ value: m.id, label: m.name })) })),
  ];
  return (
    <ActionForm action={action} label="Default model" showSuccess>
      {(state) => (
        <>
          <FormField label="Model for new chats" error={state.fields?.modelId}>
            {(control) => <OptionSelect {...control} name="modelId" defaultValue={state.values?.modelId ?? value} options={options} />}
          </FormField>
          <SubmitButton className="self-start" pendingText="Saving…">
            Save default model
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}

export function InstructionsForm({ action, instructions, max }: { action: FormAction; instructions: string; max: number }) {
  return (
    <ActionForm action={action} label="Instructions" showSuccess>
      {(state) => (
        <>
          <TextareaField
            label="Personal instructions"
            name="instructions"
            rows={6}
            maxLength={max}
            defaultValue={state.values?.instructions ?? instructions}
            hint={`At most ${max.toLocaleString("en")} characters. Leave empty for none.`}
            error={state.fields?.instructions}
          />
          <SubmitButton className="self-start" pendingText="Saving…">
            Save instructions
          </SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
