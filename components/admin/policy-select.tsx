"use client";
// An approval-policy select that submits its form on change. "default" stands for no policy of its
// own (the select's `defaultLabel` says what applies then).
import type { SelectHTMLAttributes } from "react";

type Policy = "ask" | "auto" | "deny";

const LABELS: Record<Policy, string> = { ask: "Ask every time", auto: "Run without asking", deny: "Never offer" };

export function PolicySelect({
  value,
  defaultLabel,
  ...select
}: { value: Policy | null; defaultLabel: string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, "name" | "value" | "defaultValue" | "onChange" | "children">) {
  const options: [string, string][] = [["default", defaultLabel], ...Object.entries(LABELS)];
  return (
    <select {...select} name="policy" defaultValue={value ?? "default"} key={value ?? "default"} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
      {options.map(([v, label]) => (
        <option key={v} value={v}>
          {label}
        </option>
      ))}
    </select>
  );
}
