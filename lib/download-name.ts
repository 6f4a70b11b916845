// A download named after what it holds (a chat's title): the title made into a safe file name (no
// path separators, reserved characters, control characters or leading dots; at most 100 characters),
// sent as Content-Disposition with an ASCII `filename` for old clients and the UTF-8 `filename*`.

const UNSAFE = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;

/** `title` as a file name with this extension ("md"); `fallback` when nothing of it is left. */
export function fileNameOf(title: string | null | undefined, ext: string, fallback = "chat"): string {
  const base =
    (title ?? "")
      .normalize("NFC")
      .replace(UNSAFE, " ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^[.\s]+|[.\s]+$/g, "")
      .slice(0, 100)
      .trim() || fallback;
  return `${base}.${ext}`;
}

/** `attachment` with the name both ways (RFC 6266): the ASCII fallback and the exact UTF-8 name. */
export function attachmentHeader(name: string): string {
  const ascii =
    name
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\%]/g, "") || "download";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
