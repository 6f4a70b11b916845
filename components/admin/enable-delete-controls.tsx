"use client";
// Disable / enable and delete (behind a confirmation dialog) one thing an admin manages: a provider,
// an MCP server. One message shows the outcome of the action submitted last.
import { useActionState, useState } from "react";
import { initialActionState } from "@/components/ui/form-state";
import type { FormAction } from "@/components/ui/action-form";
import { Button } from "../ui/button";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "../ui/dialog";
import { FormMessage } from "../ui/field";
import { SubmitButton } from "../ui/submit-button";

export type EnableDeleteControlsProps = {
  /** The form field that carries the id (what the actions read), and the id. */
  idField: string;
  id: string;
  /** What the buttons name: "Disable <noun>", "Enable <noun>", "Delete <noun>". */
  noun: string;
  enabled: boolean;
  setEnabled: FormAction;
  remove: FormAction;
  /** The confirmation dialog: its title, what deleting takes with it, and its confirming button. */
  confirm: { title: string; description: string; button: string };
};

export function EnableDeleteControls({ idField, id, noun, enabled, setEnabled, remove, confirm }: EnableDeleteControlsProps) {
  const [toggleState, toggle] = useActionState(setEnabled, initialActionState);
  const [removeState, removeAction] = useActionState(remove, initialActionState);
  const [confirming, setConfirming] = useState(false);
  const [last, setLast] = useState<"toggle" | "remove">("toggle");
  const shown = last === "toggle" ? toggleState : removeState;
  return (
    <div className="flex flex-col gap-3">
      <FormMessage message={shown.message} ok={shown.ok} />
      <div className="flex flex-wrap gap-3">
        <form action={toggle} onSubmit={() => setLast("toggle")}>
          <input type="hidden" name={idField} value={id} />
          <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
          <SubmitButton variant="secondary">{enabled ? `Disable ${noun}` : `Enable ${noun}`}</SubmitButton>
        </form>
        <AlertDialog open={confirming} onOpenChange={setConfirming}>
          <AlertDialogTrigger asChild>
            <Button variant="danger">Delete {noun}</Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogTitle>{confirm.title}</AlertDialogTitle>
            <AlertDialogDescription>{confirm.description}</AlertDialogDescription>
            <form
              action={removeAction}
              onSubmit={() => {
                setLast("remove");
                setConfirming(false);
              }}
            >
              <input type="hidden" name={idField} value={id} />
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button type="submit" variant="danger">
                  {confirm.button}
                </Button>
              </AlertDialogFooter>
            </form>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </div>
  );
}
