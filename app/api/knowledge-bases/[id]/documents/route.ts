// GET: a knowledge base's documents with their status, progress, reason, size and pages. POST adds a
// document, queued for indexing (201), in one of two ways chosen by Content-Type:
//   multipart/form-data, field "file"   an upload;
//   application/json {url}              a page or file fetched from the URL (lib/knowledge/fetch-document.ts):
//                                       400 for a bad URL, 422 when the address is refused, the server
//                                       cannot be reached or the file cannot be read, 413 past the size.
// 409 when the same file is in the base already, 413 past the size or the team's storage cap.
import { handle, idParams } from "@/lib/http";
import { addDocument, listDocuments } from "@/lib/knowledge/documents";
import { addDocumentFromUrl, documentUrlSchema } from "@/lib/knowledge/fetch-document";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { readDocumentUpload } from "@/app/_server/document-upload";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json({ documents: await listDocuments(ctx, (await idParams(params)).id) });
});

const isJson = (req: Request) => /^application\/([a-z0-9.+-]+\+)?json\b/i.test(req.headers.get("content-type") ?? "");

export const POST = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  if (isJson(req)) {
    const { url } = await readJson(req, documentUrlSchema);
    return Response.json(await addDocumentFromUrl(ctx, id, url), { status: 201 });
  }
  return Response.json(await addDocument(ctx, id, await readDocumentUpload(req)), { status: 201 });
});
