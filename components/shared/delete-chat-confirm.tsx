"use client";
// The inside of "Delete this chat?": what goes, the error of a refused delete, Cancel and Delete chat.
// The chat header and the sidebar's chat menu open it from their own AlertDialog.
import { Button } from "../ui/button";
import { AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogTitle } from "../ui/dialog";

export function DeleteChatConfirm({
  heading,
  error,
  pending,
  onDelete,
  onCloseAutoFocus,
}: {
  heading: string;
  error?: string;
  pending: boolean;
  onDelete: () => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  return (
    <AlertDialogContent onCloseAutoFocus={onCloseAutoFocus}>
      <AlertDialogTitle>{heading}</AlertDialogTitle>
      <AlertDialogDescription>Its messages and tool results are deleted for good.</AlertDialogDescription>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <AlertDialogFooter>
        <AlertDialogCancel>Cancel</AlertDialogCancel>
        <Button variant="danger" disabled={pending} onClick={onDelete}>
          Delete chat
        </Button>
      </AlertDialogFooter>
    </AlertDialogContent>
  );
}
