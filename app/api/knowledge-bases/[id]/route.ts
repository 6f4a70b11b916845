// PATCH: rename a knowledge base or change its description. DELETE: delete it with its documents,
// passages and embeddings. Who may: lib/knowledge/access.ts (404 unseen, 403 seen but not theirs to change).
import { handle, idParams } from "@/lib/http";
import { deleteKnowledgeBase, renameBaseSchema, renameKnowledgeBase } from "@/lib/knowledge/knowledge-bases";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  await renameKnowledgeBase(ctx, id, await readJson(req, renameBaseSchema));
  return Response.json({ ok: true });
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await deleteKnowledgeBase(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
