"use client";
// A new chat (the /chat page): a draft under a fresh id. Its first message stores it and moves the
// address to /chat/<id> in place (history.replaceState, so the answer goes on streaming), which leaves
// the router holding this page for /chat: the next link to /chat (New chat, or the page a deleted chat
// goes back to) shows it again as it is, without asking the server. So whenever the address comes back
// to /chat after leaving it, the draft starts afresh under a new id: an empty page, and the next
// message starts a chat of its own. New chat clicked while the address is /chat starts afresh too
// (components/shell/new-chat-link.tsx).
import { useEffect, useState } from "react";
import { usePathname } from "next/navigation";
import { onNewChat } from "../shared/chat-events";
import { ChatScreen, type ChatScreenProps } from "./chat-screen";

/** An id for a draft chat, as the server's draftChatId makes them (32 lowercase hex digits); needs no secure context. */
function newDraftId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function NewChatScreen(props: ChatScreenProps) {
  const pathname = usePathname();
  const [draft, setDraft] = useState({ id: props.chatId, pathname });
  let id = draft.id;
  if (pathname !== draft.pathname) {
    // Set while rendering (React's way to reset state when an input changes): no frame shows the old draft.
    id = pathname === "/chat" ? newDraftId() : draft.id;
    setDraft({ id, pathname });
  }
  useEffect(() => onNewChat(() => setDraft((d) => ({ id: newDraftId(), pathname: d.pathname }))), []);
  return <ChatScreen key={id} {...props} chatId={id} />;
}
