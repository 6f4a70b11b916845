"use client";
// Stop, as the page asks for it: the server owns the turn and stops it. A request the server has not
// taken up yet has nothing to stop: its turn may wait for a slot (PARLEY_TURN_QUEUE_MS, 5 s) and, after
// a decision, for the answer before it to be stored (up to 5 s more). So Stop is asked again every
// 250 ms while the page still waits for that answer, for up to 15 s.
import { useCallback, useEffect, useRef } from "react";
import { fetchJson } from "../shared/fetch-json";

/** How long, and how often, Stop is asked again while the server has not taken up the turn yet. */
export const STOP_LIMIT_MS = 15_000;
const STOP_RETRY_MS = 250;

/** What the server said to one Stop: whether it stopped a turn (undefined: no usable answer). */
export type StopAnswer = { stopped?: boolean } | undefined;

/**
 * Asks `ask` until a turn is stopped, the page no longer waits (`waiting`), an answer is unusable, or
 * `limitMs` has passed; true when a turn was stopped.
 */
export async function askToStop(
  ask: () => Promise<StopAnswer>,
  waiting: () => boolean,
  { limitMs = STOP_LIMIT_MS, everyMs = STOP_RETRY_MS } = {},
): Promise<boolean> {
  for (const until = Date.now() + limitMs; ;) {
    const answer = await ask();
    if (answer?.stopped) return true;
    if (!answer || !waiting() || Date.now() + everyMs > until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function useStopTurn(chatId: string, busy: boolean): () => Promise<void> {
  const busyNow = useRef(busy);
  useEffect(() => {
    busyNow.current = busy;
  }, [busy]);
  return useCallback(async () => {
    const ask = (): Promise<StopAnswer> =>
      fetchJson<{ stopped?: boolean } | undefined>(`/api/chat/${chatId}/stop`, { method: "POST" }).then(
        (answer) => answer ?? {},
        () => undefined,
      );
    await askToStop(ask, () => busyNow.current);
  }, [chatId]);
}
