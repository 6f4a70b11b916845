"use client";
// Enable/disable and delete a provider (delete asks first: its models go with it).
import { useActionState } from "react";
import type { ActionState } from "@/lib/actions";
import type { FormAction } from "../../auth/action-form";
import { Button } from "../../ui/button";
import { FormMessage } from "../../ui/field";

const initial: ActionState = { ok: false };

export function ProviderControls({ providerId, enabled, toggle, remove }: { providerId: string; enabled: boolean; toggle: FormAction; remove: FormAction }) {
  const [toggleState, toggleAction] = useActionState(toggle, initial);
  const [removeState, removeAction] = useActionState(remove, initial);
  return (
    <div className="flex flex-col gap-2">
      <FormMessage message={toggleState.message ?? removeState.message} ok={toggleState.message ? toggleState.ok : removeState.ok} />
      <div className="flex flex-wrap gap-3">
        <form action={toggleAction}>
          <input type="hidden" name="providerId" value={providerId} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <Button type="submit" variant="secondary">
            {enabled ? "Disable provider" : "Enable provider"}
          </Button>
        </form>
        <form
          action={removeAction}
          onSubmit={(e) => {
            if (!window.confirm("Delete this provider and all its models? Chats that used them fall back to the team default.")) e.preventDefault();
          }}
        >
          <input type="hidden" name="providerId" value={providerId} />
          <Button type="submit" variant="danger">
            Delete provider
          </Button>
        </form>
      </div>
    </div>
  );
}
