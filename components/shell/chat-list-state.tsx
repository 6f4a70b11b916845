"use client";
// The sidebar's chat list as the page knows it now: the search, the view (active or archived), the
// loaded pages, loading and error. One state for the whole signed-in frame, so every list drawn from
// it (the sidebar, and the drawer on narrow screens, which is drawn anew each time it opens) shows the
// same chats: one changed while the drawer was closed is there when it opens. The list reloads when a
// chat changes anywhere (shared/chat-events.ts) and, a moment after typing, for a new search.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import type { ChatPage } from "@/lib/chat/chat-list";
import { onChats } from "../shared/chat-events";
import { fetchJson, serverMessage } from "../shared/fetch-json";

export type View = "active" | "archived";
const SEARCH_DELAY_MS = 200;

export function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

async function fetchPage(q: string, view: View, cursor?: string | null): Promise<ChatPage> {
  const params = new URLSearchParams({ tz: timeZone(), view });
  if (q.trim()) params.set("q", q.trim());
  if (cursor) params.set("cursor", cursor);
  try {
    return await fetchJson<ChatPage>(`/api/chats?${params}`, { cache: "no-store" });
  } catch (err) {
    throw new Error(serverMessage(err) ?? "Could not load the chats.");
  }
}

type ChatListState = {
  q: string;
  setQ: (q: string) => void;
  view: View;
  setView: (view: View) => void;
  page: ChatPage;
  loading: boolean;
  error?: string;
  /** Loads the next page below the ones shown. */
  more: () => Promise<void>;
};

const ChatListContext = createContext<ChatListState | null>(null);

/** Holds the list for every ChatList below it, starting from the page the server rendered. */
export function ChatListProvider({ initial, children }: { initial: ChatPage; children: React.ReactNode }) {
  const [view, setView] = useState<View>("active");
  const [q, setQ] = useState("");
  const [page, setPage] = useState(initial);
  // The frame rendered again on the server (a refresh, another team): its page is the newest.
  const [rendered, setRendered] = useState(initial);
  if (initial !== rendered) {
    setRendered(initial);
    setPage(initial);
  }
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const latest = useRef(0);

  const reload = useCallback(async (query: string, which: View) => {
    const mine = ++latest.current;
    setLoading(true);
    try {
      const next = await fetchPage(query, which);
      if (mine === latest.current) {
        setPage(next);
        setError(undefined);
      }
    } catch (err) {
      if (mine === latest.current) setError((err as Error).message);
    } finally {
      if (mine === latest.current) setLoading(false);
    }
  }, []);

  // The time zone goes along as a cookie too, so the next server-rendered list groups days as here.
  useEffect(() => {
    document.cookie = `parley_tz=${encodeURIComponent(timeZone())}; path=/; max-age=31536000; samesite=lax`;
  }, []);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => void reload(q, view), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [q, view, reload]);
  useEffect(() => onChats(() => void reload(q, view)), [q, view, reload]);

  const more = useCallback(async () => {
    setLoading(true);
    try {
      const next = await fetchPage(q, view, page.nextCursor);
      setPage((p) => ({ chats: [...p.chats, ...next.chats], nextCursor: next.nextCursor }));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setLoading(false);
    }
  }, [q, view, page.nextCursor]);

  const value = useMemo(() => ({ q, setQ, view, setView, page, loading, error, more }), [q, view, page, loading, error, more]);
  return <ChatListContext.Provider value={value}>{children}</ChatListContext.Provider>;
}

export function useChatListState(): ChatListState {
  const state = useContext(ChatListContext);
  if (!state) throw new Error("useChatListState needs a ChatListProvider");
  return state;
}
