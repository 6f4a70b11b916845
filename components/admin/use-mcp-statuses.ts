"use client";
// The live status of MCP servers, polled from /api/mcp/servers (or one server's route) while the page
// is open; shown by McpStatusBadge (components/shared/mcp-status-badge.tsx).
import { useCallback, useEffect, useRef, useState } from "react";
import type { McpStatus } from "@/lib/mcp/pool";
import { fetchJson } from "../shared/fetch-json";

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
