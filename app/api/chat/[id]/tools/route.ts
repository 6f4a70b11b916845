// GET: the team's MCP servers (live status, enabled tools) and this chat's tool selection.
// PUT: save the selection; ids of another team's servers or tools are 404 and nothing is saved.
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { chatTools, setChatTools } from "@/lib/chat/chat-tools";
import { toolSelectionSchema } from "@/lib/tools/selection";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json(await chatTools(ctx, (await idParams(params)).id));
});

export const PUT = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const selection = await readJson(req, toolSelectionSchema);
  return Response.json({ selection: await setChatTools(ctx, (await idParams(params)).id, selection) });
});
