// GET: a tool's input schema (a tool of the caller's team), for the form that edits a call's input.
import { handle, idParams } from "@/lib/http";
import { teamToolRow } from "@/lib/mcp/tool-rows";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const tool = await teamToolRow(ctx.team.id, (await idParams(params)).id, "No such tool in your team.");
  return Response.json({ inputSchema: tool.inputSchema ?? null });
});
