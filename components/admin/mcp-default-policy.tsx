"use client";
// The server's default approval policy for tools without one of their own.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { FormMessage } from "../ui/field";
import { PolicySelect } from "./policy-select";

export function McpDefaultPolicy({ serverId, value, action }: { serverId: string; value: "ask" | "auto" | "deny" | null; action: FormAction }) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <input type="hidden" name="serverId" value={serverId} />
      <label htmlFor="server-default-policy" className="text-sm font-medium">
        Default approval policy
      </label>
      <PolicySelect
        id="server-default-policy"
        value={value}
        defaultLabel="From each tool's annotations (read-only runs, others ask)"
        className="h-9 max-w-md rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      />
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}
