"use client";
// The sidebar's New chat: a link to /chat. On the new chat page itself (the address exactly /chat) it
// starts afresh in place (shared/chat-events.ts) instead of asking the server for the page again, whose answer
// would replace the page a moment later, perhaps after a message was typed and sent in it.
import Link from "next/link";
import { startNewChat } from "../shared/chat-events";

export function NewChatLink({ onClick, ...props }: Omit<React.ComponentProps<typeof Link>, "href">) {
  return (
    <Link
      {...props}
      href="/chat"
      onClick={(e) => {
        onClick?.(e);
        const plain = e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
        if (!plain || e.defaultPrevented || window.location.pathname !== "/chat" || window.location.search) return;
        e.preventDefault();
        startNewChat();
      }}
    />
  );
}
