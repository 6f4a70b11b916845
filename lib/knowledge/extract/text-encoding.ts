// Reading a text document's bytes as text: UTF-8 (with or without its byte-order mark), UTF-16 with its
// mark, or the encoding the document declares: a charset its sender gave (Content-Type) or, for HTML,
// its own <meta charset> / <meta http-equiv="Content-Type"> near the top, as browsers read them. A file
// that is not UTF-8 and does not say what it is cannot be read (said so, never guessed).

export type Decoded = { ok: true; text: string } | { ok: false; message: string };

/** The charset named in a Content-Type value, if any ("text/html; charset=ISO-8859-1" -> "iso-8859-1"). */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? "")?.[1]?.toLowerCase();
}

/** The charset an HTML page declares in its first 1,024 bytes. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 1024));
  return (/<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ?? undefined)?.toLowerCase();
}

function decoderFor(charset: string): TextDecoder | undefined {
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined; // an encoding name this runtime does not know
  }
}

export function decodeText(bytes: Uint8Array, opts: { html?: boolean; charset?: string } = {}): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { ok: true, text: new TextDecoder("utf-16le").decode(bytes) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { ok: true, text: new TextDecoder("utf-16be").decode(bytes) };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    // Not UTF-8: what the document (or its sender) says it is.
  }
  const declared = opts.charset ?? (opts.html ? metaCharset(bytes) : undefined);
  if (!declared || declared === "utf-8" || declared === "utf8") {
    return { ok: false, message: "The file is not readable text: it is not UTF-8, and it does not say which encoding it uses." };
  }
  const decoder = decoderFor(declared);
  if (!decoder) return { ok: false, message: `The file says it is in the encoding “${declared}”, which cannot be read.` };
  return { ok: true, text: decoder.decode(bytes) };
}
