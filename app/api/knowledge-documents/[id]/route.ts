// PUT (multipart/form-data, field "file"): replace a document's file — its next version, queued for
// indexing, the old version's passages gone. DELETE: delete the document with its passages.
import { handle, idParams } from "@/lib/http";
import { deleteDocument, replaceDocument } from "@/lib/knowledge/documents";
import { requireTeam } from "@/app/_server/caller";
import { readDocumentUpload } from "@/app/_server/document-upload";

type Params = { params: Promise<{ id: string }> };

export const PUT = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  return Response.json(await replaceDocument(ctx, id, await readDocumentUpload(req)));
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await deleteDocument(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
