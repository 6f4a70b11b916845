"use client";
// "Connect" for an MCP server where members use their own account: starts the member's sign-in at
// the server's authorization server and comes back to this page. Shown in a turn's notice when the
// server's tools could not be used for want of a (working) connection.
export function ConnectLink({ serverId }: { serverId: string }) {
  const returnTo = typeof window === "undefined" ? "" : window.location.pathname;
  return (
    <a
      href={`/api/mcp/connections/${serverId}/connect?returnTo=${encodeURIComponent(returnTo)}`}
      className="inline-flex items-center rounded-md border border-line-strong px-2 py-0.5 text-xs font-medium text-strong hover:bg-raised focus-visible:outline-2 focus-visible:outline-offset-2"
    >
      Connect
    </a>
  );
}
