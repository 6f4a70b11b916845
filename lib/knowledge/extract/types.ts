// What extracting a document gives: its text, where each page lies in that text and where each heading
// starts, or a failure a person can read (why nothing could be taken). Also the limits checked before
// any heavy work. Types and constants only: every format module and the chunker share them.

/** The largest document accepted, in bytes. */
export const MAX_DOCUMENT_BYTES = 50 * 1024 * 1024;
/** The most pages a PDF may have. */
export const MAX_PDF_PAGES = 1_000;
/** The most characters of extracted text kept: past this the document is refused, never cut silently. */
export const MAX_EXTRACTED_CHARS = 10_000_000;

export type DocumentFormat = "pdf" | "docx" | "html" | "markdown" | "text" | "csv";

/** A page's range in the text: [start, end). Formats without pages have one page. */
export type PageRange = { number: number; start: number; end: number };
/** A heading: its level (1 is the top), its title and where it starts in the text. */
export type Heading = { level: number; title: string; start: number };

export type ExtractedDocument = {
  ok: true;
  format: DocumentFormat;
  text: string;
  pages: PageRange[];
  headings: Heading[];
  /** PDF pages that had no text (a scanned page inside a document with text). */
  pagesWithoutText: number[];
};

export type ExtractionFailureReason = "unsupported" | "no-text-layer" | "damaged" | "too-large" | "too-many-pages";

export type ExtractionFailure = { ok: false; reason: ExtractionFailureReason; message: string };

export type ExtractionResult = ExtractedDocument | ExtractionFailure;

export function failure(reason: ExtractionFailureReason, message: string): ExtractionFailure {
  return { ok: false, reason, message };
}
