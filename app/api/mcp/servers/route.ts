// GET: the team's MCP servers with their tools and live status (every member; no secrets).
import { handle } from "@/lib/http";
import { listServers } from "@/lib/mcp/servers";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async () => {
  const ctx = await requireTeam();
  return Response.json({ servers: await listServers(ctx.team.id) });
});
