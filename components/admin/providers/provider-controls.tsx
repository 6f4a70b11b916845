"use client";
// Enable/disable and delete a provider (delete asks first: its models go with it).
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../../ui/button";
import { FormMessage } from "../../ui/field";

export function ProviderControls({ providerId, enabled, toggle, remove }: { providerId: string; enabled: boolean; toggle: FormAction; remove: FormAction }) {
  const [toggleState, toggleAction] = useActionState(toggle, initialActionState);
  const [removeState, removeAction] = useActionState(remove, initialActionState);
  // One message: that of the action submitted last, with its own outcome.
  const [last, setLast] = useState<"toggle" | "remove">("toggle");
  const shown = last === "toggle" ? toggleState : removeState;
  return (
    <div className="flex flex-col gap-2">
      <FormMessage message={shown.message} ok={shown.ok} />
      <div className="flex flex-wrap gap-3">
        <form action={toggleAction} onSubmit={() => setLast("toggle")}>
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
            else setLast("remove");
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
