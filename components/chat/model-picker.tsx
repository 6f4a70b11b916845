"use client";
// The model picker in the composer: the team's enabled models grouped by provider. The choice goes
// with the next message and the server remembers it for the chat.
import type { PickerGroup } from "@/lib/providers/models";

export function ModelPicker({ groups, value, onChange, disabled }: { groups: PickerGroup[]; value: string; onChange: (id: string) => void; disabled?: boolean }) {
  if (!groups.length) return null;
  return (
    <div className="flex items-center gap-1.5">
      <label htmlFor="model-picker" className="text-xs text-zinc-500">
        Model
      </label>
      <select
        id="model-picker"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        className="h-7 max-w-56 truncate rounded-md border border-zinc-300 bg-white px-1.5 text-xs dark:border-zinc-700 dark:bg-zinc-900"
      >
        {groups.map((g) => (
          <optgroup key={g.provider} label={g.provider}>
            {g.models.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
                {m.webSearch ? " · web search" : ""}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </div>
  );
}
