import { adminPage } from "@/app/_server/page-guards";
import { stdioAllowed } from "@/lib/mcp/config";
import { listServersForAdmin } from "@/lib/mcp/servers";
import { McpServerForm } from "@/components/admin/mcp-server-form";
import { McpServerList } from "@/components/admin/mcp-server-list";
import { createMcpServerAction } from "./actions";

export const metadata = { title: "MCP servers" };

export default async function McpServersPage() {
  const ctx = await adminPage("/admin/mcp");
  const servers = await listServersForAdmin(ctx);
  return (
    <div className="flex flex-col gap-10">
      <section aria-labelledby="mcp-heading">
        <h1 id="mcp-heading" className="mb-1 text-lg font-semibold">
          MCP servers
        </h1>
        <p className="mb-3 text-sm text-subtle">Tools of these servers are shared by the team; members choose them per chat.</p>
        <McpServerList
          servers={servers.map((s) => ({
            id: s.id,
            name: s.name,
            transport: s.transport,
            target: s.transport === "stdio" ? [s.command, ...s.args].join(" ") : (s.url ?? ""),
            enabled: s.enabled,
            toolCount: s.tools.length,
            status: s.status,
          }))}
        />
      </section>
      <section aria-labelledby="mcp-add-heading" className="max-w-xl">
        <h2 id="mcp-add-heading" className="mb-3 text-lg font-semibold">
          Add a server
        </h2>
        <McpServerForm action={createMcpServerAction} stdioAllowed={stdioAllowed()} submitLabel="Add server" />
      </section>
    </div>
  );
}
