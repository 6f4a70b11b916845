"use client";
// The chat's versions on the page: the version switcher asks the server for the other branch and puts
// it in place (focus stays on the switcher), and after each turn the stored branch replaces the live
// one, so every message has its stored id and versions ("2 / 2") and Continue sees a stopped answer.
// Edit, regenerate and continue themselves are turns and go through useChat (chat-view.tsx).
import { useCallback, useState } from "react";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { fetchJson, serverMessage } from "../shared/fetch-json";
import { fetchBranchPage, withNewestPage, type BranchPage } from "./branch-page";
import type { Direction } from "./message-actions";

type Older = { hasMore: boolean; firstSeq?: number; loading: boolean };
type Messages = ParleyUIMessage[];

export function useBranches({
  chatId,
  setMessages,
  setOlder,
  requestsSent,
}: {
  chatId: string;
  /** useChat's: the updater reads the chat's messages as they are at that instant. */
  setMessages: (update: (latest: Messages) => Messages) => void;
  setOlder: (older: Older) => void;
  /** How many turn requests the page has sent so far. */
  requestsSent: () => number;
}) {
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string>();
  const [focus, setFocus] = useState<{ id: string; direction: Direction }>();

  /** Puts the page in place, unless `still` says the shown messages have changed meanwhile. */
  const apply = useCallback(
    (page: BranchPage, still: (latest: Messages) => boolean = () => true) => {
      let older: Omit<Older, "loading"> | undefined;
      setMessages((latest) => {
        if (!still(latest)) return latest;
        const merged = withNewestPage(latest, page);
        older = merged.older;
        return merged.messages;
      });
      if (older) setOlder({ ...older, loading: false });
    },
    [setMessages, setOlder],
  );

  /**
   * After a turn (`finished`: the messages as it ended): what the server stored, unless the chat moved
   * on meanwhile (another request sent: a message, decisions; or the messages changed), when the next
   * turn's refresh does it.
   */
  const refresh = useCallback(
    async (finished: Messages) => {
      const sent = requestsSent();
      const page = await fetchBranchPage(chatId);
      if (page) apply(page, (latest) => requestsSent() === sent && latest.length === finished.length && latest.at(-1) === finished.at(-1));
    },
    [chatId, apply, requestsSent],
  );
  const switchVersion = useCallback(
    async (messageId: string, direction: Direction) => {
      setSwitching(true);
      setError(undefined);
      try {
        const body = await fetchJson<BranchPage & { versionId: string }>(`/api/chat/${chatId}/versions`, { method: "POST", body: { messageId, direction } });
        apply(body);
        setFocus({ id: body.versionId, direction });
      } catch (err) {
        setError(serverMessage(err) ?? "Could not show that version. Try again.");
      }
      setSwitching(false);
    },
    [chatId, apply],
  );

  return { switching, error, clearError: () => setError(undefined), focus, refresh, switchVersion };
}
