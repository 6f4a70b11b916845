"use client";
// Delete a project behind a confirmation; its chats stay, out of any project.
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Trash2 } from "lucide-react";
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
import { announceChats } from "../shared/chat-events";
import { fetchJson } from "../shared/fetch-json";

export function DeleteProjectButton({ projectId, name }: { projectId: string; name: string }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  async function remove() {
    setPending(true);
    setError(undefined);
    const deleted = await fetchJson(`/api/projects/${projectId}`, { method: "DELETE" }).then(
      () => true,
      () => false,
    );
    setPending(false);
    if (!deleted) return setError("Could not delete the project. Try again.");
    announceChats();
    router.push("/chat");
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" className="self-start text-danger">
          <Trash2 className="size-4" aria-hidden /> Delete project
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete “{name}”?</AlertDialogTitle>
        <AlertDialogDescription>Its chats are kept, out of any project.</AlertDialogDescription>
        <FormMessage message={error} />
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button variant="danger" disabled={pending} onClick={() => void remove()}>
            {pending ? "Deleting…" : "Delete project"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
