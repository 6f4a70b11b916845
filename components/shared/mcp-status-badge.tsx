// An MCP server's status as a badge (connected with its tool count, connecting, error with the last
// message and time, disabled, not connected yet): on the admin's server pages and in the chat's tool picker.
import type { McpStatus } from "@/lib/mcp/pool";

const LABEL: Record<McpStatus["state"], string> = {
  idle: "Not connected yet",
  connecting: "Connecting",
  connected: "Connected",
  error: "Error",
  disabled: "Disabled",
};

const DOT: Record<McpStatus["state"], string> = {
  idle: "bg-status-idle",
  connecting: "bg-status-busy animate-pulse",
  connected: "bg-status-ok",
  error: "bg-status-error",
  disabled: "bg-dim",
};

export function McpStatusBadge({ status, detailed = false }: { status: McpStatus; detailed?: boolean }) {
  const when = status.error?.at ? new Date(status.error.at).toLocaleTimeString() : undefined;
  return (
    <span className="inline-flex flex-col gap-0.5" data-mcp-status={status.state}>
      <span className="inline-flex items-center gap-1.5 text-xs">
        <span className={`size-2 shrink-0 rounded-full ${DOT[status.state]}`} aria-hidden />
        <span>{LABEL[status.state]}</span>
        {status.state === "connected" && status.toolCount !== undefined && <span className="text-subtle">· {status.toolCount} tools</span>}
      </span>
      {detailed && status.state === "error" && status.error && (
        <span className="text-xs text-error">
          {status.error.message} <span className="text-subtle">({when})</span>
        </span>
      )}
    </span>
  );
}
