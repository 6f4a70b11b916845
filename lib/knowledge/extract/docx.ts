// A Word document's text through mammoth (maintained; reads the document's structure: paragraph styles
// Heading 1–6 become h1–h6), then the HTML extractor, so headings keep their levels. A file that is
// not a readable DOCX is damaged.

import { extractHtml } from "./html";
import { failure, type ExtractionResult } from "./types";

export async function extractDocx(bytes: Uint8Array): Promise<ExtractionResult> {
  const mammoth = await import("mammoth");
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }));
  } catch {
    return failure("damaged", "The Word document is damaged: it could not be opened.");
  }
  return extractHtml(html, "docx");
}
