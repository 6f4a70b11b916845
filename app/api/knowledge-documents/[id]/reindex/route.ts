// POST: index a document again from its file (its passages are gone until then).
import { handle, idParams } from "@/lib/http";
import { reindexDocument } from "@/lib/knowledge/documents";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const POST = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await reindexDocument(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
