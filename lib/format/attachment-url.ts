// Where an uploaded file is served, /api/attachments/<id>: the server writes these urls into file parts,
// and the server and the browser read the attachment's id back from them.
const ATTACHMENT_URL = /^\/api\/attachments\/([A-Za-z0-9_-]{1,64})$/;

export function attachmentUrl(id: string): string {
  return `/api/attachments/${id}`;
}

/** The id in an attachment's url; undefined for any other url. */
export function attachmentIdOf(url: string): string | undefined {
  return ATTACHMENT_URL.exec(url)?.[1];
}
