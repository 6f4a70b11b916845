// Settings → Connections: the team's MCP servers where members use their own account or key, and
// this member's state at each (connected, connect again, not connected), with Connect, Disconnect,
// or a field for their own key. Tokens and keys never reach this page.
import { ConnectionsList } from "@/components/account/connections-list";
import { listConnections } from "@/lib/identity/mcp-credentials";
import { teamPage } from "@/app/_server/page-guards";
import { disconnectAction, saveKeyAction } from "./actions";

export const metadata = { title: "Connections" };

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<{ connected?: string }> }) {
  const ctx = await teamPage("/settings/connections");
  const [connections, { connected }] = await Promise.all([listConnections(ctx.team.id, ctx.user.id), searchParams]);
  return (
    <div className="mx-auto max-w-2xl px-4 pb-10 pt-14 md:pt-6">
      <h1 className="mb-1 text-lg font-semibold">Connections</h1>
      <p className="mb-6 text-sm text-subtle">
        Tool servers in {ctx.team.name} where you act as yourself: connect your own account or paste your own key. Your tool calls to them use it; nobody
        else&apos;s do.
      </p>
      {typeof connected === "string" && connected.length < 100 && (
        <p role="status" className="mb-4 rounded-md border border-success-line bg-success-soft px-3 py-2 text-sm text-on-success-soft">
          Connected to {connected}.
        </p>
      )}
      <ConnectionsList connections={connections} disconnect={disconnectAction} saveKey={saveKeyAction} />
    </div>
  );
}
