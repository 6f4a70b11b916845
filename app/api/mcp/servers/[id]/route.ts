// GET: one MCP server of the team with its tools and live status (every member; another team's is 404).
import { handle, idParams } from "@/lib/http";
import { getServer } from "@/lib/mcp/servers";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json({ server: await getServer(ctx, (await idParams(params)).id) });
});
