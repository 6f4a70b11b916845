"use client";
// Stop, as the page asks for it: the server owns the turn and stops it. A request the server has not
// taken up yet (its turn waits for a slot, or has not claimed the chat) has nothing to stop, so Stop is
// asked again, a little later, while the page still waits for that answer.
import { useCallback, useEffect, useRef } from "react";

/** How often, and how far apart, Stop is asked again while the server has not taken up the turn yet. */
const STOP_ATTEMPTS = 20;
const STOP_RETRY_MS = 250;

export function useStopTurn(chatId: string, busy: boolean): () => Promise<void> {
  const busyNow = useRef(busy);
  useEffect(() => {
    busyNow.current = busy;
  }, [busy]);
  return useCallback(async () => {
    for (let attempt = 0; attempt < STOP_ATTEMPTS; attempt++) {
      const res = await fetch(`/api/chat/${chatId}/stop`, { method: "POST" }).catch(() => undefined);
      const body = res?.ok ? ((await res.json().catch(() => ({}))) as { stopped?: boolean }) : undefined;
      if (!body || body.stopped || !busyNow.current) return;
      await new Promise((r) => setTimeout(r, STOP_RETRY_MS));
    }
  }, [chatId]);
}
