"use client";
// The model picker in the composer: the team's enabled models grouped by provider. The choice goes
// with the next message and the server remembers it for the chat.
import type { PickerGroup } from "@/lib/providers/models";
import { Label } from "../ui/label";
import { OptionSelect } from "../ui/select";

export function ModelPicker({
  groups,
  value,
  onChange,
  disabled,
}: {
  groups: PickerGroup[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  if (!groups.length) return null;
  return (
    <div className="flex items-center gap-1.5">
      <Label htmlFor="model-picker" className="text-xs font-normal text-subtle">
        Model
      </Label>
      <OptionSelect
        id="model-picker"
        size="xs"
        className="max-w-56"
        value={value}
        disabled={disabled}
        onValueChange={onChange}
        options={groups.map((g) => ({
          label: g.provider,
          options: g.models.map((m) => ({ value: m.id, label: `${m.name}${m.webSearch ? " · web search" : ""}` })),
        }))}
      />
    </div>
  );
}
