"use client";
// The page's one live channel (GET /api/live, lib/live/live-channel.ts): a single EventSource per page,
// opened by LiveProvider in the app shell, whose named events widgets take with useLive. The browser
// reconnects by itself when the stream ends (the server restarts, its lifetime is up). A widget outside
// a LiveProvider gets nothing and keeps what it rendered with.
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import type { LiveEvents } from "@/lib/live/live-channel";

type Listener = (data: unknown) => void;
type Channel = { listen(event: string, listener: Listener, replay: boolean): () => void };

const LiveContext = createContext<Channel | null>(null);

export function LiveProvider({ children }: { children: ReactNode }) {
  const [channel] = useState(() => {
    const listeners = new Map<string, Set<Listener>>();
    /** The last data of each event: a widget that mounts later starts from it. */
    const last = new Map<string, unknown>();
    let source: EventSource | undefined;
    const deliver = (event: string) => (e: MessageEvent<string>) => {
      const data: unknown = JSON.parse(e.data);
      last.set(event, data);
      for (const l of listeners.get(event) ?? []) l(data);
    };
    return {
      open() {
        source = new EventSource("/api/live");
        for (const event of ["servers", "approvals"] satisfies (keyof LiveEvents)[]) source.addEventListener(event, deliver(event));
      },
      close: () => source?.close(),
      listen(event: string, listener: Listener, replay: boolean) {
        const set = listeners.get(event) ?? new Set();
        listeners.set(event, set.add(listener));
        if (replay && last.has(event)) listener(last.get(event));
        return () => void set.delete(listener);
      },
    };
  });
  useEffect(() => {
    channel.open();
    return channel.close;
  }, [channel]);
  return <LiveContext.Provider value={channel}>{children}</LiveContext.Provider>;
}

/**
 * Calls `onEvent` with each `event` of the page's live channel, and with the last one at once when
 * there is one: a widget that shows the event's data starts from it. `replay: false` is for widgets
 * that only take an event as the sign to read their own data again, which they did as they mounted.
 */
export function useLive<K extends keyof LiveEvents>(event: K, onEvent: (data: LiveEvents[K]) => void, { replay = true } = {}): void {
  const channel = useContext(LiveContext);
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => channel?.listen(event, (data) => handler.current(data as LiveEvents[K]), replay), [channel, event, replay]);
}
