"use client";
// One chat's menu in the sidebar: Rename (a dialog), Pin / Unpin, Archive / Unarchive, Delete (behind
// a confirmation). Keyboard: the menu button opens it, arrows move, Enter picks, Escape closes, and
// focus comes back to the menu button, or to the search box when the chat left the list. The button
// is named "Chat options for <title>", so a screen reader's list of buttons tells the chats apart.
import { useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { Archive, ArchiveRestore, MoreHorizontal, Pencil, Pin, PinOff, Trash2 } from "lucide-react";
import type { ChatListItem } from "@/lib/chat/chat-list";
import { Button } from "../ui/button";
import { AlertDialog, Dialog, DialogContent, DialogTitle } from "../ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "../ui/dropdown-menu";
import { Input } from "../ui/input";
import { announceChats } from "../shared/chat-events";
import { sendChatChange, type ChatChange } from "../shared/chat-requests";
import { DeleteChatConfirm } from "../shared/delete-chat-confirm";

export function ChatMenu({ chat, current, onGone, onMoved }: { chat: ChatListItem; current: boolean; onGone: () => void; onMoved: (chatId: string) => void }) {
  const router = useRouter();
  const title = chat.title || "Untitled chat";
  const trigger = useRef<HTMLButtonElement>(null);
  const leaving = useRef(false);
  const [dialog, setDialog] = useState<"rename" | "delete" | null>(null);
  const [draft, setDraft] = useState(title);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function change(body: ChatChange | "delete"): Promise<boolean> {
    setPending(true);
    setError(undefined);
    const failed = body === "delete" ? await sendChatChange(chat.id, "DELETE") : await sendChatChange(chat.id, "PATCH", body);
    setPending(false);
    if (failed) {
      setError(failed);
      return false;
    }
    if (body === "delete") {
      announceChats({ id: chat.id, deleted: true });
      if (current) router.push("/chat");
    } else announceChats({ id: chat.id, title: body.title });
    return true;
  }

  /** Focus after a menu or dialog closes: the menu button, or the search box when the chat left the list. */
  const refocus = (e: Event) => {
    e.preventDefault();
    if (leaving.current) onGone();
    else trigger.current?.focus();
    leaving.current = false;
  };

  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button
            ref={trigger}
            data-chat-menu={chat.id}
            size="icon"
            variant="ghost"
            className="size-7 shrink-0 text-icon"
            aria-label={`Chat options for ${title}`}
          >
            <MoreHorizontal className="size-4" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent onCloseAutoFocus={(e) => (dialog ? e.preventDefault() : refocus(e))}>
          <DropdownMenuItem
            onSelect={() => {
              setDraft(title);
              setError(undefined);
              setDialog("rename");
            }}
          >
            <Pencil className="size-4" aria-hidden /> Rename
          </DropdownMenuItem>
          {!chat.archived && (
            <DropdownMenuItem
              onSelect={() => {
                onMoved(chat.id);
                void change({ pinned: !chat.pinned });
              }}
            >
              {chat.pinned ? <PinOff className="size-4" aria-hidden /> : <Pin className="size-4" aria-hidden />} {chat.pinned ? "Unpin" : "Pin"}
            </DropdownMenuItem>
          )}
          <DropdownMenuItem
            onSelect={() => {
              leaving.current = true;
              void change({ archived: !chat.archived });
            }}
          >
            {chat.archived ? <ArchiveRestore className="size-4" aria-hidden /> : <Archive className="size-4" aria-hidden />}{" "}
            {chat.archived ? "Unarchive" : "Archive"}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            danger
            onSelect={() => {
              setError(undefined);
              setDialog("delete");
            }}
          >
            <Trash2 className="size-4" aria-hidden /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={dialog === "rename"} onOpenChange={(open) => !open && setDialog(null)}>
        <DialogContent aria-describedby={undefined} onCloseAutoFocus={refocus}>
          <DialogTitle>Rename chat</DialogTitle>
          <form
            className="flex flex-col gap-3"
            onSubmit={async (e) => {
              e.preventDefault();
              onMoved(chat.id);
              if (await change({ title: draft })) setDialog(null);
            }}
          >
            <label htmlFor={`rename-${chat.id}`} className="text-sm font-medium">
              Chat title
            </label>
            <Input
              id={`rename-${chat.id}`}
              autoFocus
              value={draft}
              maxLength={120}
              onChange={(e) => setDraft(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `rename-error-${chat.id}` : undefined}
            />
            {error && (
              <p id={`rename-error-${chat.id}`} role="alert" className="text-sm text-danger">
                {error}
              </p>
            )}
            <div className="flex justify-end gap-2">
              <Button variant="secondary" onClick={() => setDialog(null)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                Save
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>

      <AlertDialog open={dialog === "delete"} onOpenChange={(open) => !open && setDialog(null)}>
        <DeleteChatConfirm
          heading={`Delete “${title}”?`}
          error={error}
          pending={pending}
          onCloseAutoFocus={refocus}
          onDelete={async () => {
            leaving.current = true;
            if (await change("delete")) setDialog(null);
            else leaving.current = false;
          }}
        />
      </AlertDialog>
    </>
  );
}
