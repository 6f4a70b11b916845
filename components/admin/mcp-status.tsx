"use client";
// The live status of MCP servers (connected, connecting, error with the last message and time,
// disabled, not connected yet), polled from /api/mcp/servers (or one server's route) while the page is open.
import { useCallback, useEffect, useRef, useState } from "react";
import type { McpStatus } from "@/lib/mcp/pool";
import { fetchJson } from "../shared/fetch-json";

const LABEL: Record<McpStatus["state"], string> = {
  idle: "Not connected yet",
  connecting: "Connecting",
  connected: "Connected",
  error: "Error",
  disabled: "Disabled",
};

const DOT: Record<McpStatus["state"], string> = {
  idle: "bg-zinc-400",
  connecting: "bg-amber-500 animate-pulse",
  connected: "bg-green-600",
  error: "bg-red-600",
  disabled: "bg-zinc-300 dark:bg-zinc-600",
};

type Polled = { id: string; status: McpStatus };

/**
 * Polls server statuses every `ms` milliseconds from `url`: /api/mcp/servers (the team's list) or
 * /api/mcp/servers/<id> (one server); starts from `initial`, and takes a newer `initial` (the page
 * rendered again, e.g. after a test) as it comes. `refresh` reads the statuses at once.
 */
export function useMcpStatuses(
  url: string,
  initial: Record<string, McpStatus>,
  ms = 3000,
): { statuses: Record<string, McpStatus>; refresh: () => Promise<void> } {
  const [statuses, setStatuses] = useState(initial);
  const [seen, setSeen] = useState(JSON.stringify(initial));
  if (JSON.stringify(initial) !== seen) {
    setSeen(JSON.stringify(initial));
    setStatuses(initial);
  }
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    try {
      const body = await fetchJson<{ servers?: Polled[]; server?: Polled }>(url, { cache: "no-store" });
      if (!alive.current) return;
      const servers = body.servers ?? (body.server ? [body.server] : []);
      setStatuses(Object.fromEntries(servers.map((s) => [s.id, s.status])));
    } catch {
      /* offline, or refused: keep the last known */
    }
  }, [url]);
  useEffect(() => {
    alive.current = true;
    const timer = setInterval(() => void refresh(), ms);
    return () => {
      alive.current = false;
      clearInterval(timer);
    };
  }, [refresh, ms]);
  return { statuses, refresh };
}

export function McpStatusBadge({ status, detailed = false }: { status: McpStatus; detailed?: boolean }) {
  const when = status.error?.at ? new Date(status.error.at).toLocaleTimeString() : undefined;
  return (
    <span className="inline-flex flex-col gap-0.5" data-mcp-status={status.state}>
      <span className="inline-flex items-center gap-1.5 text-xs">
        <span className={`size-2 shrink-0 rounded-full ${DOT[status.state]}`} aria-hidden />
        <span>{LABEL[status.state]}</span>
        {status.state === "connected" && status.toolCount !== undefined && <span className="text-zinc-600 dark:text-zinc-400">· {status.toolCount} tools</span>}
      </span>
      {detailed && status.state === "error" && status.error && (
        <span className="text-xs text-red-700 dark:text-red-300">
          {status.error.message} <span className="text-zinc-600 dark:text-zinc-400">({when})</span>
        </span>
      )}
    </span>
  );
}
