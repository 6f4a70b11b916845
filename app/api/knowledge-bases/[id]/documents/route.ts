// GET: a knowledge base's documents with their status, progress, reason, size and pages. POST
// (multipart/form-data, field "file"): add a document, queued for indexing (201); 409 when the same
// file is in the base already, 413 past the size or the team's storage cap.
import { handle, idParams } from "@/lib/http";
import { addDocument, listDocuments } from "@/lib/knowledge/documents";
import { requireTeam } from "@/app/_server/caller";
import { readDocumentUpload } from "@/app/_server/document-upload";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json({ documents: await listDocuments(ctx, (await idParams(params)).id) });
});

export const POST = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  return Response.json(await addDocument(ctx, id, await readDocumentUpload(req)), { status: 201 });
});
