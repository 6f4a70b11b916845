"use client";
// Disable / enable and delete (behind a confirmation dialog) an MCP server.
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import { AlertDialog, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle, AlertDialogTrigger } from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export function McpServerDanger({ serverId, name, enabled, setEnabled, remove }: { serverId: string; name: string; enabled: boolean; setEnabled: FormAction; remove: FormAction }) {
  const [toggleState, toggle] = useActionState(setEnabled, initialActionState);
  const [removeState, removeAction] = useActionState(remove, initialActionState);
  const [confirming, setConfirming] = useState(false);
  // One message: that of the action submitted last, with its own outcome.
  const [last, setLast] = useState<"toggle" | "remove">("toggle");
  const shown = last === "toggle" ? toggleState : removeState;
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={shown.message} ok={shown.ok} />
      <div className="flex flex-wrap gap-3">
        <form action={toggle} onSubmit={() => setLast("toggle")}>
          <input type="hidden" name="serverId" value={serverId} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <SubmitButton variant="secondary">{enabled ? "Disable server" : "Enable server"}</SubmitButton>
        </form>
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="danger">Delete server</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>Delete {name}?</AlertDialogTitle>
            <AlertDialogDescription>Delete {name} and its tool settings? Chats stop offering its tools.</AlertDialogDescription>
            <form
              action={removeAction}
              onSubmit={() => {
                setLast("remove");
                setConfirming(false);
              }}
            >
              <input type="hidden" name="serverId" value={serverId} />
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button type="submit" variant="danger">
                  Yes, delete
                </Button>
              </AlertDialogFooter>
            </form>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </div>
  );
}
