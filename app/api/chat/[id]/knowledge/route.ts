// GET: the knowledge bases this chat may search (team-wide ones the caller sees, its project's) and its
// choice. PUT: save the choice { bases, automatic }; a base the caller cannot see is 404, nothing saved.
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { chatKnowledge, setChatKnowledge } from "@/lib/chat/chat-knowledge";
import { knowledgeChoiceSchema } from "@/lib/knowledge/chat-bases";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json(await chatKnowledge(ctx, (await idParams(params)).id));
});

export const PUT = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const choice = await readJson(req, knowledgeChoiceSchema);
  return Response.json({ choice: await setChatKnowledge(ctx, (await idParams(params)).id, choice) });
});
