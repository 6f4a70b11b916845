"use client";
// The team's default model (new chats, and chats whose model is gone) and its fallback model (used
// once when the chosen provider fails before answering).
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { PickerGroup } from "@/lib/providers/models";
import type { FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../../ui/field";
import { SubmitButton } from "../../ui/submit-button";
import { inputClass } from "./provider-form";

export function TeamModelsForm({ groups, defaultModelId, fallbackModelId, save }: { groups: PickerGroup[]; defaultModelId: string | null; fallbackModelId: string | null; save: FormAction }) {
  const [state, action] = useActionState(save, initialActionState);
  const f = state.fields ?? {};
  if (!groups.length) return <p className="text-sm text-zinc-500">Enable a model of a provider first.</p>;
  const options = groups.map((g) => (
    <optgroup key={g.provider} label={g.provider}>
      {g.models.map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </optgroup>
  ));
  return (
    <form action={action} className="flex flex-wrap items-end gap-4" aria-label="Team models" noValidate>
      <div className="flex basis-full flex-col">
        <FormMessage message={state.message} ok={state.ok} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="default-model" className="text-sm font-medium">
          Default model
        </label>
        <select id="default-model" name="defaultModelId" defaultValue={defaultModelId ?? ""} className={`h-10 ${inputClass}`} aria-invalid={f.defaultModelId ? true : undefined}>
          {options}
        </select>
        {f.defaultModelId && <p className="text-sm text-red-600">{f.defaultModelId}</p>}
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="fallback-model" className="text-sm font-medium">
          Fallback model
        </label>
        <select id="fallback-model" name="fallbackModelId" defaultValue={fallbackModelId ?? ""} className={`h-10 ${inputClass}`} aria-invalid={f.fallbackModelId ? true : undefined}>
          <option value="">None</option>
          {options}
        </select>
        {f.fallbackModelId && <p className="text-sm text-red-600">{f.fallbackModelId}</p>}
      </div>
      <SubmitButton pendingText="Saving…">Save</SubmitButton>
    </form>
  );
}
