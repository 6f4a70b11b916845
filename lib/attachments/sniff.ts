// What a file is, from its bytes (magic numbers), never from the name or the type the browser claims:
// PNG, JPEG, GIF and WebP images, PDF documents, and text (UTF-8 without NUL bytes: plain text,
// Markdown, CSV, JSON, source code). Anything else is refused. A text file keeps a more precise type
// only when its name says so and the bytes are text anyway (e.g. `notes.md` -> text/markdown).

export type Sniffed = { mediaType: string; kind: "image" | "pdf" | "text" };

const starts = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

const TEXT_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/plain", // shown and sent as text, never rendered as a page
};

/** The file's type, or undefined when it is none Parley accepts. */
export function sniff(bytes: Uint8Array, name = ""): Sniffed | undefined {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mediaType: "image/png", kind: "image" };
  if (starts(bytes, [0xff, 0xd8, 0xff])) return { mediaType: "image/jpeg", kind: "image" };
  if (starts(bytes, ascii("GIF87a")) || starts(bytes, ascii("GIF89a"))) return { mediaType: "image/gif", kind: "image" };
  if (starts(bytes, ascii("RIFF")) && starts(bytes, ascii("WEBP"), 8)) return { mediaType: "image/webp", kind: "image" };
  if (starts(bytes, ascii("%PDF-"))) return { mediaType: "application/pdf", kind: "pdf" };
  if (isUtf8Text(bytes)) {
    const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
    return { mediaType: TEXT_TYPES[ext] ?? "text/plain", kind: "text" };
  }
  return undefined;
}

/** Valid UTF-8 (a BOM allowed) with no NUL bytes and few control characters: a text file. */
function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return false;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) control++;
  }
  return control <= text.length / 100;
}
