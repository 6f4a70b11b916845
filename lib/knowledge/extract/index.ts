// A document's text for the knowledge base: one entry, extractDocument, that checks the limits, tells
// the format from the bytes (lib/attachments/sniff.ts for PDFs and images, the ZIP signature for DOCX)
// and the given media type or name, and hands the bytes to that format's module. Every outcome is an
// ExtractedDocument or an ExtractionFailure a person can read; nothing is silently empty.

import { sniffBinary } from "@/lib/attachments/sniff";

import { extractCsv } from "./csv";
import { extractDocx } from "./docx";
import { decodeText } from "./text-encoding";
import { extractHtml } from "./html";
import { extractMarkdown, extractPlainText } from "./markdown";
import { extractPdf } from "./pdf";
import { failure, MAX_DOCUMENT_BYTES, MAX_EXTRACTED_CHARS, type DocumentFormat, type ExtractionResult } from "./types";

export * from "./types";

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export async function extractDocument(bytes: Uint8Array, { mediaType, name }: { mediaType: string; name: string }): Promise<ExtractionResult> {
  if (bytes.byteLength > MAX_DOCUMENT_BYTES)
    return failure("too-large", `The file is ${mb(bytes.byteLength)}; at most ${mb(MAX_DOCUMENT_BYTES)} are accepted.`);
  if (bytes.byteLength === 0) return failure("damaged", "The file is empty.");
  const format = detectFormat(bytes, mediaType, name);
  if (typeof format !== "string") return format.failure;
  const result = await extractFormat(format, bytes);
  if (!result.ok) return result;
  if (result.text.length > MAX_EXTRACTED_CHARS) {
    return failure(
      "too-large",
      `The document has ${result.text.length.toLocaleString("en")} characters of text; at most ${MAX_EXTRACTED_CHARS.toLocaleString("en")} are accepted.`,
    );
  }
  if (!result.text.trim()) return failure("no-text-layer", "The document has no text in it.");
  return result;
}

async function extractFormat(format: DocumentFormat, bytes: Uint8Array): Promise<ExtractionResult> {
  if (format === "pdf") return extractPdf(bytes);
  if (format === "docx") return extractDocx(bytes);
  const decoded = decodeText(bytes, { html: format === "html" });
  if (!decoded.ok) return failure("damaged", decoded.message);
  const text = decoded.text;
  if (text.includes("\u0000")) return failure("damaged", "The file is not readable text: it holds binary data.");
  if (format === "html") return extractHtml(text);
  if (format === "markdown") return extractMarkdown(text);
  if (format === "csv") return extractCsv(text);
  return extractPlainText(text);
}

/** The document's format, from its first bytes first, then its media type and name. */
export function detectFormat(bytes: Uint8Array, mediaType: string, name: string): DocumentFormat | { failure: ExtractionResult } {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  const sniffed = sniffBinary(bytes.subarray(0, 16));
  if (sniffed?.kind === "pdf") return "pdf";
  if (sniffed?.kind === "image") return { failure: failure("unsupported", "The file is an image; text is not read from images.") };
  if (type === "application/pdf" || extension === "pdf")
    return { failure: failure("damaged", "The file is called a PDF but is not one: it does not start as a PDF does.") };
  const zipped = ZIP_SIGNATURE.every((byte, i) => bytes[i] === byte);
  if (type === DOCX_MEDIA_TYPE || extension === "docx") {
    return zipped ? "docx" : { failure: failure("damaged", "The file is called a Word document but is not one.") };
  }
  if (zipped) return { failure: failure("unsupported", "The file is an archive or an office format other than DOCX; it cannot be read.") };
  if (type === "text/html" || type === "application/xhtml+xml" || extension === "html" || extension === "htm") return "html";
  if (type === "text/markdown" || extension === "md" || extension === "markdown") return "markdown";
  if (type === "text/csv" || extension === "csv") return "csv";
  if (type.startsWith("text/") || type === "" || type === "application/octet-stream" || extension === "txt") {
    const head = new TextDecoder().decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
    return head.startsWith("<!doctype html") || head.startsWith("<html") ? "html" : "text";
  }
  return { failure: failure("unsupported", `Documents of type ${type} cannot be read; PDF, Word (DOCX), HTML, Markdown, CSV and plain text can.`) };
}
