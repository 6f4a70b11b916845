// POST: the chat owner's answer to a question an MCP server asked during a tool call (submit with the
// form's content, decline, or cancel). Checked against the requested schema on the server.
import { handle, idParams } from "@/lib/http";
import { answerElicitation, answerSchema } from "@/lib/mcp-chat/elicitations";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  return Response.json(await answerElicitation(ctx, id, await readJson(req, answerSchema)));
});
