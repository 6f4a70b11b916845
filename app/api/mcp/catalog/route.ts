// GET: what the team's enabled MCP servers offer the composer besides tools: resources and resource
// templates (Attach) and prompts ("/"). A server that is down is listed with its error.
import { handle } from "@/lib/http";
import { teamCatalog } from "@/lib/mcp-chat/mcp-catalog";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async () => {
  const ctx = await requireTeam();
  return Response.json({ servers: await teamCatalog(ctx) });
});
