// A document's file as it arrives, by upload or from a URL: its media type by its name, and its bytes
// read whole up to a cap (lib/knowledge/extract looks at the bytes too).
import { DOCX_MEDIA_TYPE } from "./extract";

const MEDIA_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  docx: DOCX_MEDIA_TYPE,
  html: "text/html",
  htm: "text/html",
  md: "text/markdown",
  markdown: "text/markdown",
  csv: "text/csv",
  txt: "text/plain",
};

/** The media type of a document's file by its name's extension (application/octet-stream when unknown). */
export function mediaTypeOfName(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return MEDIA_TYPES[extension] ?? "application/octet-stream";
}

/**
 * The bytes of a stream read whole, or "too-large" as soon as they pass `max`: the rest is not read
 * (leaving the loop cancels a web stream).
 */
export async function readCapped(source: AsyncIterable<Uint8Array>, max: number): Promise<Uint8Array | "too-large"> {
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const piece of source) {
    size += piece.byteLength;
    if (size > max) return "too-large";
    pieces.push(piece);
  }
  return Buffer.concat(pieces, size);
}
