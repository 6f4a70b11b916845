"use client";
// Enable/disable and delete a provider (delete asks first in a dialog: its models go with it).
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../../ui/button";
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle, AlertDialogTrigger } from "../../ui/dialog";
import { FormMessage } from "../../ui/field";
import { SubmitButton } from "../../ui/submit-button";

export function ProviderControls({ providerId, enabled, toggle, remove }: { providerId: string; enabled: boolean; toggle: FormAction; remove: FormAction }) {
  const [toggleState, toggleAction] = useActionState(toggle, initialActionState);
  const [removeState, removeAction] = useActionState(remove, initialActionState);
  const [confirming, setConfirming] = useState(false);
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
          <SubmitButton variant="secondary">{enabled ? "Disable provider" : "Enable provider"}</SubmitButton>
        </form>
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="danger">Delete provider</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>Delete this provider?</AlertDialogTitle>
            <AlertDialogDescription>Delete this provider and all its models? Chats that used them fall back to the team default.</AlertDialogDescription>
            <form
              action={removeAction}
              onSubmit={() => {
                setLast("remove");
                setConfirming(false);
              }}
            >
              <input type="hidden" name="providerId" value={providerId} />
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button type="submit" variant="danger">
                  Delete provider
                </Button>
              </AlertDialogFooter>
            </form>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </div>
  );
}
