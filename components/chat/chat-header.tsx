"use client";
// The chat's title bar: its title as it is now (chat-title.tsx), the owner's Share, Move to project and
// Export, rename in place, delete behind a confirmation dialog. A draft (New chat) has none of these
// until its first message stores it; then they appear at once (the page is not loaded again).
import { useState } from "react";
import { useRouter } from "next/navigation";
import { Pencil, Trash2 } from "lucide-react";
import { Button } from "../ui/button";
import { AlertDialog, AlertDialogTrigger } from "../ui/dialog";
import { Input } from "../ui/input";
import { Tooltip } from "../ui/tooltip";
import { announceChats } from "../shared/chat-events";
import { sendChatChange, type ChatChange } from "../shared/chat-requests";
import { DeleteChatConfirm } from "../shared/delete-chat-confirm";
import { ShareButton } from "./share-dialog";
import { MoveToProjectButton } from "./move-to-project";
import { ExportMenu } from "./export-menu";
import { useChatTitle } from "./chat-title";

export function ChatHeader({ projectId }: { projectId: string | null }) {
  const { chatId, title, stored } = useChatTitle();
  const router = useRouter();
  const [mode, setMode] = useState<"view" | "rename">("view");
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(title);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function call(method: "PATCH" | "DELETE", body?: ChatChange) {
    setPending(true);
    setError(undefined);
    const failed = await sendChatChange(chatId, method, body);
    setPending(false);
    setError(failed);
    return !failed;
  }

  return (
    <header className="flex min-h-12 items-center gap-2 border-b border-line px-4 py-2 pl-14 md:pl-4">
      {mode === "rename" ? (
        <form
          className="flex flex-1 items-center gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await call("PATCH", { title: draft })) {
              setMode("view");
              announceChats({ id: chatId, title: draft.trim() });
            }
          }}
        >
          <label htmlFor="chat-title" className="sr-only">
            Chat title
          </label>
          <Input id="chat-title" size="sm" autoFocus value={draft} maxLength={120} onChange={(e) => setDraft(e.target.value)} className="flex-1" />
          <Button type="submit" size="sm" disabled={pending}>
            Save
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setMode("view")}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</h1>
          {stored && (
            <>
              <ShareButton chatId={chatId} />
              <MoveToProjectButton chatId={chatId} projectId={projectId} />
              <ExportMenu chatId={chatId} />
              <Tooltip content="Rename chat">
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label="Rename chat"
                  onClick={() => {
                    setDraft(title);
                    setMode("rename");
                  }}
                >
                  <Pencil className="size-4" aria-hidden />
                </Button>
              </Tooltip>
              <AlertDialog open={confirming} onOpenChange={setConfirming}>
                <Tooltip content="Delete chat">
                  <AlertDialogTrigger asChild>
                    <Button size="sm" variant="ghost" aria-label="Delete chat">
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </AlertDialogTrigger>
                </Tooltip>
                <DeleteChatConfirm
                  heading="Delete this chat?"
                  error={error}
                  pending={pending}
                  onDelete={async () => {
                    if (await call("DELETE")) {
                      setConfirming(false);
                      announceChats({ id: chatId, deleted: true });
                      router.push("/chat");
                    }
                  }}
                />
              </AlertDialog>
            </>
          )}
        </>
      )}
      {error && !confirming && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
    </header>
  );
}
