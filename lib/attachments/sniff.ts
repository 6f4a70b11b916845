// What a file is, from its bytes (magic numbers), never from the name or the type the browser claims:
// PNG, JPEG, GIF and WebP images, PDF documents, and text (UTF-8 without NUL bytes: plain text,
// Markdown, CSV, JSON, source code). Anything else is refused. A text file keeps a more precise type
// only when its name says so and the bytes are text anyway (e.g. `notes.md` -> text/markdown).
// Text is checked as it arrives (TextCheck), so an upload is never held whole to be sniffed.

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

/** An image's or PDF's type from the file's first bytes; undefined for anything else (text, maybe). */
export function sniffBinary(head: Uint8Array): Sniffed | undefined {
  if (starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mediaType: "image/png", kind: "image" };
  if (starts(head, [0xff, 0xd8, 0xff])) return { mediaType: "image/jpeg", kind: "image" };
  if (starts(head, ascii("GIF87a")) || starts(head, ascii("GIF89a"))) return { mediaType: "image/gif", kind: "image" };
  if (starts(head, ascii("RIFF")) && starts(head, ascii("WEBP"), 8)) return { mediaType: "image/webp", kind: "image" };
  if (starts(head, ascii("%PDF-"))) return { mediaType: "application/pdf", kind: "pdf" };
  return undefined;
}

/** The type of a text file, by its name's extension. */
export function textType(name: string): Sniffed {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return { mediaType: TEXT_TYPES[ext] ?? "text/plain", kind: "text" };
}

/**
 * Whether bytes fed piece by piece are a text file: valid UTF-8 (a BOM allowed), no NUL, at most one
 * control character in a hundred. Keeps the first `keep` characters of the text.
 */
export class TextCheck {
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });
  private chars = 0;
  private control = 0;
  private broken = false;
  private kept = "";

  constructor(private readonly keep = 0) {}

  /** Feeds the next bytes; false as soon as they cannot be text. */
  push(bytes: Uint8Array, last = false): boolean {
    if (this.broken) return false;
    let text: string;
    try {
      text = this.decoder.decode(bytes, { stream: !last });
    } catch {
      this.broken = true;
      return false;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0) {
        this.broken = true;
        return false;
      }
      if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 12) this.control++;
    }
    this.chars += text.length;
    if (this.kept.length < this.keep) this.kept += text.slice(0, this.keep - this.kept.length);
    return true;
  }

  /** After the last bytes: whether the whole was text. */
  end(): boolean {
    return this.push(new Uint8Array(0), true) && this.chars > 0 && this.control <= this.chars / 100;
  }

  /** The first characters of the text (up to `keep`). */
  get text(): string {
    return this.kept;
  }
}

/** The type of a whole file in memory, or undefined when it is none Parley accepts. */
export function sniff(bytes: Uint8Array, name = ""): Sniffed | undefined {
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  const check = new TextCheck();
  return check.push(bytes) && check.end() ? textType(name) : undefined;
}
