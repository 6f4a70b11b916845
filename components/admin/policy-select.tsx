"use client";
// An approval-policy select that submits its form on change. "default" stands for no policy of its
// own (`defaultLabel` says what applies then).
import { OptionSelect } from "../ui/select";

type Policy = "ask" | "auto" | "deny" | "admin";

const LABELS: Record<Policy, string> = { ask: "Ask every time", admin: "An admin approves", auto: "Run without asking", deny: "Never offer" };

export function PolicySelect({
  value,
  defaultLabel,
  ...rest
}: {
  value: Policy | null;
  defaultLabel: string;
  id?: string;
  className?: string;
  size?: "xs" | "sm" | "md";
  "aria-label"?: string;
}) {
  const options = [{ value: "default", label: defaultLabel }, ...Object.entries(LABELS).map(([v, label]) => ({ value: v, label }))];
  return <OptionSelect {...rest} name="policy" options={options} defaultValue={value ?? "default"} key={value ?? "default"} submitOnChange />;
}
