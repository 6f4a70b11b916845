"use client";
// The open chat's title and whether it is stored yet, shared by its header and its view: a draft
// (New chat) is "New chat" until its first message stores it; the turn then names it (data-title
// parts), and a rename from the sidebar reaches the header too. A stored chat's title also names the
// browser tab (the page's metadata sets it on load; this keeps it current).
import { createContext, useContext, useEffect, useMemo, useState } from "react";
import { onChats } from "../shared/chat-events";

type ChatTitleState = { chatId: string; title: string; stored: boolean; setTitle: (title: string) => void; setStored: () => void };

const ChatTitleContext = createContext<ChatTitleState | null>(null);

export function ChatTitleProvider({
  chatId,
  title: initial,
  stored: initiallyStored,
  children,
}: {
  chatId: string;
  title: string;
  stored: boolean;
  children: React.ReactNode;
}) {
  const [title, setTitle] = useState(initial);
  const [stored, setStoredState] = useState(initiallyStored);
  useEffect(() => onChats((c) => c.id === chatId && c.title && setTitle(c.title)), [chatId]);
  useEffect(() => {
    if (stored && title) document.title = `${title} · Parley`;
  }, [stored, title]);
  const value = useMemo(() => ({ chatId, title, stored, setTitle, setStored: () => setStoredState(true) }), [chatId, title, stored]);
  return <ChatTitleContext.Provider value={value}>{children}</ChatTitleContext.Provider>;
}

export function useChatTitle(): ChatTitleState {
  const state = useContext(ChatTitleContext);
  if (!state) throw new Error("useChatTitle needs a ChatTitleProvider");
  return state;
}
