"use client";
// The team's MCP servers with their live status, for the admin page.
import Link from "next/link";
import type { McpStatus } from "@/lib/mcp/pool";
import { McpStatusBadge } from "../shared/mcp-status-badge";
import { useMcpStatuses } from "./use-mcp-statuses";

export type McpServerRow = { id: string; name: string; transport: string; target: string; enabled: boolean; toolCount: number; status: McpStatus };

const TRANSPORT: Record<string, string> = { http: "Streamable HTTP", sse: "SSE", stdio: "stdio" };

export function McpServerList({ servers }: { servers: McpServerRow[] }) {
  const { statuses } = useMcpStatuses("/api/mcp/servers", Object.fromEntries(servers.map((s) => [s.id, s.status])));
  if (!servers.length) return <p className="text-sm text-subtle">No MCP servers yet. Add one below.</p>;
  return (
    <ul className="flex flex-col divide-y divide-line rounded-lg border border-line" aria-label="MCP servers">
      {servers.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm" data-server={s.name}>
          <div className="flex min-w-0 flex-1 flex-col">
            <Link href={`/admin/mcp/${s.id}`} className="font-medium text-accent-text hover:underline">
              {s.name}
            </Link>
            <span className="truncate text-xs text-subtle">
              {TRANSPORT[s.transport] ?? s.transport} · {s.target} · {s.toolCount} tools
            </span>
          </div>
          <McpStatusBadge status={statuses[s.id] ?? s.status} detailed />
        </li>
      ))}
    </ul>
  );
}
