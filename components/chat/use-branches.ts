"use client";
// The chat's versions on the page: the version switcher asks the server for the other branch and puts
// it in place (focus stays on the switcher), and after each turn the stored branch replaces the live
// one, so every message has its stored id and versions ("2 / 2") and Continue sees a stopped answer.
// Edit, regenerate and continue themselves are turns and go through useChat (chat-view.tsx).
import { useCallback, useEffect, useRef, useState } from "react";
import type { ParleyUIMessage } from "@/lib/chat/parts";
import { fetchNewestPage, withNewestPage, type BranchPage } from "./branch-page";
import type { Direction } from "./message-actions";

type Older = { hasMore: boolean; firstSeq?: number; loading: boolean };

export function useBranches({
  chatId,
  messages,
  setMessages,
  setOlder,
  busy,
}: {
  chatId: string;
  messages: ParleyUIMessage[];
  setMessages: (messages: ParleyUIMessage[]) => void;
  setOlder: (older: Older) => void;
  busy: boolean;
}) {
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string>();
  const [focus, setFocus] = useState<{ id: string; direction: Direction }>();
  const current = useRef({ messages, busy });
  useEffect(() => {
    current.current = { messages, busy };
  }, [messages, busy]);

  const apply = useCallback(
    (page: BranchPage) => {
      const merged = withNewestPage(current.current.messages, page);
      setMessages(merged.messages);
      if (merged.older) setOlder({ ...merged.older, loading: false });
    },
    [setMessages, setOlder],
  );

  /** After a turn: what the server stored, unless another turn has started meanwhile. */
  const refresh = useCallback(async () => {
    const page = await fetchNewestPage(chatId);
    if (page && !current.current.busy) apply(page);
  }, [chatId, apply]);

  const switchVersion = useCallback(
    async (messageId: string, direction: Direction) => {
      setSwitching(true);
      setError(undefined);
      const res = await fetch(`/api/chat/${chatId}/versions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messageId, direction }),
      }).catch(() => undefined);
      const body = (await res?.json().catch(() => undefined)) as (BranchPage & { versionId: string; error?: { message?: string } }) | undefined;
      if (res?.ok && body) {
        apply(body);
        setFocus({ id: body.versionId, direction });
      } else {
        setError(body?.error?.message ?? "Could not show that version. Try again.");
      }
      setSwitching(false);
    },
    [chatId, apply],
  );

  return { switching, error, clearError: () => setError(undefined), focus, refresh, switchVersion };
}
