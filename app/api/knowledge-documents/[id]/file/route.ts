// GET: a knowledge document's original file, for those who see its base (404 for anyone else). A PDF
// opens in the browser (the viewer links to it at a page, `#page=N`); anything else downloads. Never
// sniffed again by the browser.
import { handle, idParams } from "@/lib/http";
import { documentFile } from "@/lib/knowledge/viewer";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const file = await documentFile(ctx, (await idParams(params)).id);
  const pdf = file.mediaType === "application/pdf";
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": file.mediaType.startsWith("text/") ? `${file.mediaType}; charset=utf-8` : file.mediaType,
      "content-length": String(file.bytes.byteLength),
      "content-disposition": `${pdf ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=300",
    },
  });
});
