"use client";
// The live status of MCP servers while the page is open: from the page's live channel
// (components/shared/live.tsx), and read at once from /api/mcp/servers (or one server's route) when
// asked; shown by McpStatusBadge (components/shared/mcp-status-badge.tsx).
import { useCallback, useEffect, useRef, useState } from "react";
import type { McpStatus } from "@/lib/mcp/pool";
import { fetchJson } from "../shared/fetch-json";
import { useLive } from "../shared/live";

type ServerStatus = { id: string; status: McpStatus };

/**
 * The statuses of the servers in `initial` (the page's own), as the live channel sends them; takes a
 * newer `initial` (the page rendered again, e.g. after a test) as it comes. `refresh` reads them at
 * once from `url`: /api/mcp/servers (the team's list) or /api/mcp/servers/<id> (one server).
 */
export function useMcpStatuses(url: string, initial: Record<string, McpStatus>): { statuses: Record<string, McpStatus>; refresh: () => Promise<void> } {
  const [statuses, setStatuses] = useState(initial);
  const [seen, setSeen] = useState(JSON.stringify(initial));
  if (JSON.stringify(initial) !== seen) {
    setSeen(JSON.stringify(initial));
    setStatuses(initial);
  }
  const alive = useRef(true);
  const refresh = useCallback(async () => {
    try {
      const body = await fetchJson<{ servers?: ServerStatus[]; server?: ServerStatus }>(url, { cache: "no-store" });
      if (!alive.current) return;
      const servers = body.servers ?? (body.server ? [body.server] : []);
      setStatuses(Object.fromEntries(servers.map((s) => [s.id, s.status])));
    } catch {
      /* offline, or refused: keep the last known */
    }
  }, [url]);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  useLive("servers", ({ servers }) => setStatuses((shown) => Object.fromEntries(servers.filter((s) => s.id in shown).map((s) => [s.id, s.status]))));
  return { statuses, refresh };
}
