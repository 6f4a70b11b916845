"use client";
// The team's default model (new chats, and chats whose model is gone) and its fallback model (used
// once when the chosen provider fails before answering).
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { PickerGroup } from "@/lib/providers/models";
import type { FormAction } from "@/components/ui/action-form";
import { FormField, FormMessage } from "../../ui/field";
import { OptionSelect } from "../../ui/select";
import { SubmitButton } from "../../ui/submit-button";

export function TeamModelsForm({
  groups,
  defaultModelId,
  fallbackModelId,
  save,
}: {
  groups: PickerGroup[];
  defaultModelId: string | null;
  fallbackModelId: string | null;
  save: FormAction;
}) {
  const [state, action] = useActionState(save, initialActionState);
  const f = state.fields ?? {};
  if (!groups.length) return <p className="text-sm text-subtle">Enable a model of a provider first.</p>;
  const options = groups.map((g) => ({ label: g.provider, options: g.models.map((m) => ({ value: m.id, label: m.name })) }));
  return (
    <form action={action} className="flex flex-wrap items-end gap-4" aria-label="Team models" noValidate>
      <div className="flex basis-full flex-col">
        <FormMessage message={state.message} ok={state.ok} />
      </div>
      <FormField label="Default model" error={f.defaultModelId}>
        {(control) => (
          <OptionSelect
            {...control}
            name="defaultModelId"
            defaultValue={defaultModelId ?? ""}
            className="w-56"
            options={options}
            placeholder="Choose a model"
          />
        )}
      </FormField>
      <FormField label="Fallback model" error={f.fallbackModelId}>
        {(control) => (
          <OptionSelect
            {...control}
            name="fallbackModelId"
            defaultValue={fallbackModelId ?? ""}
            className="w-56"
            options={[{ value: "", label: "None" }, ...options]}
          />
        )}
      </FormField>
      <SubmitButton pendingText="Saving…">Save</SubmitButton>
    </form>
  );
}
