"use client";
// The server's default approval policy for tools without one of their own.
import { useActionState } from "react";
import type { ActionState } from "@/lib/actions";
import type { FormAction } from "../auth/action-form";
import { FormMessage } from "../ui/field";

const LABELS = { default: "From each tool's annotations (read-only runs, others ask)", ask: "Ask every time", auto: "Run without asking", deny: "Never offer" } as const;

export function McpDefaultPolicy({ serverId, value, action }: { serverId: string; value: "ask" | "auto" | "deny" | null; action: FormAction }) {
  const [state, formAction] = useActionState(action, { ok: false } as ActionState);
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <input type="hidden" name="serverId" value={serverId} />
      <label htmlFor="server-default-policy" className="text-sm font-medium">
        Default approval policy
      </label>
      <select
        id="server-default-policy"
        name="policy"
        defaultValue={value ?? "default"}
        key={value ?? "default"}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
        className="h-9 max-w-md rounded-md border border-zinc-300 bg-white px-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {Object.entries(LABELS).map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}
