"use client";
// The server's defaults: the approval policy for tools without one of their own, and whether its
// tools are on in new chats.
import { useActionState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { CheckboxField, FormMessage } from "../ui/field";
import { Label } from "../ui/label";
import { PolicySelect } from "./policy-select";

export function McpDefaultPolicy({ serverId, value, action }: { serverId: string; value: "ask" | "auto" | "deny" | "admin" | null; action: FormAction }) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <input type="hidden" name="serverId" value={serverId} />
      <Label htmlFor="server-default-policy">Default approval policy</Label>
      <PolicySelect
        id="server-default-policy"
        value={value}
        defaultLabel="Ask (read-only tools run without asking only if trusted below)"
        size="sm"
        className="max-w-md"
      />
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}

/** "On by default in new chats": a checkbox that saves at once. */
export function McpOnByDefault({ serverId, value, action }: { serverId: string; value: boolean; action: FormAction }) {
  const [state, formAction] = useActionState(action, initialActionState);
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <input type="hidden" name="serverId" value={serverId} />
      <input type="hidden" name="onByDefault" value={value ? "false" : "true"} />
      <CheckboxField
        key={String(value)}
        label="On by default in new chats"
        defaultChecked={value}
        aria-describedby="mcp-on-by-default-hint"
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      />
      <p id="mcp-on-by-default-hint" className="text-xs text-subtle">
        Members who have not chosen tools yet get this server&apos;s tools switched on in their new chats; after that, each member&apos;s last choice is kept.
      </p>
      <FormMessage message={state.message} ok={state.ok} />
    </form>
  );
}
