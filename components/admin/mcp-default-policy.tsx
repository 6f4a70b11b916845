"use client";
// The server's default approval policy for tools without one of their own.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../ui/field";
import { Label } from "../ui/label";
import { PolicySelect } from "./policy-select";

export function McpDefaultPolicy({ serverId, value, action }: { serverId: string; value: "ask" | "auto" | "deny" | null; action: FormAction }) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <input type="hidden" name="serverId" value={serverId} />
      <Label htmlFor="server-default-policy">Default approval policy</Label>
      <PolicySelect
        id="server-default-policy"
        value={value}
        defaultLabel="From each tool's annotations (read-only runs, others ask)"
        size="sm"
        className="max-w-md"
      />
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}
