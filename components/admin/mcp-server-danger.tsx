"use client";
// Disable / enable and delete (with a confirmation) an MCP server.
import { useActionState, useState } from "react";
import type { ActionState } from "@/lib/actions";
import type { FormAction } from "../auth/action-form";
import { Button } from "../ui/button";
import { FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function McpServerDanger({ serverId, name, enabled, setEnabled, remove }: { serverId: string; name: string; enabled: boolean; setEnabled: FormAction; remove: FormAction }) {
  const [toggleState, toggle] = useActionState(setEnabled, { ok: false } as ActionState);
  const [removeState, removeAction] = useActionState(remove, { ok: false } as ActionState);
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={toggleState.message ?? removeState.message} ok={toggleState.ok} />
      <div className="flex flex-wrap gap-3">
        <form action={toggle}>
          <input type="hidden" name="serverId" value={serverId} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <SubmitButton variant="secondary">{enabled ? "Disable server" : "Enable server"}</SubmitButton>
        </form>
        {!confirming ? (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete server
          </Button>
        ) : (
          <form action={removeAction} className="flex items-center gap-2">
            <input type="hidden" name="serverId" value={serverId} />
            <span className="text-sm">Delete {name} and its tool settings?</span>
            <SubmitButton variant="danger">Yes, delete</SubmitButton>
            <Button variant="ghost" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </form>
        )}
      </div>
    </div>
  );
}
