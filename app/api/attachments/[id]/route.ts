// GET: an attachment's bytes (streamed a chunk at a time), for the people who may see its chat (or its
// uploader before it is sent);
// 404 for anyone else. Served with its sniffed type, never sniffed again by the browser, and as a
// download unless it is an image or a PDF; in a sandbox, so nothing in it runs on this origin.
// DELETE: the uploader removes it while it is unsent (the composer's Remove); 404 otherwise.
import { handle, idParams } from "@/lib/http";
import { deleteUnsentAttachment, readAttachment } from "@/lib/attachments/store";
import { requireTeam } from "@/app/_server/caller";

const INLINE = /^(image\/(png|jpeg|gif|webp)|application\/pdf)$/;

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const file = await readAttachment(ctx, (await idParams(params)).id);
  const type = file.mediaType.startsWith("text/") ? `${file.mediaType}; charset=utf-8` : file.mediaType;
  return new Response(file.body, {
    headers: {
      "content-type": type,
      "content-length": String(file.size),
      "content-disposition": `${INLINE.test(file.mediaType) ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
      "cache-control": "private, max-age=3600",
    },
  });
});

export const DELETE = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  await deleteUnsentAttachment(ctx, (await idParams(params)).id);
  return new Response(null, { status: 204 });
});
