// A PDF's text page by page through unpdf (PDF.js), with headings guessed from type size: a short line
// set clearly larger than the body text is a heading, the largest sizes the top levels. Yields to the
// event loop between pages, so a long document does not hold other requests up. A PDF with no text at
// all is a scan (no-text-layer); one PDF.js cannot open is damaged.

import { TextBuilder } from "./text-builder";
import { failure, MAX_PDF_PAGES, type ExtractionResult } from "./types";

type PdfLine = { text: string; size: number };

/** A line counts as a heading when its type is at least this much larger than the body's. */
const HEADING_SIZE_RATIO = 1.15;
const MAX_HEADING_CHARS = 150;
const MAX_HEADING_LEVELS = 3;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function extractPdf(bytes: Uint8Array): Promise<ExtractionResult> {
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes the buffer over: give it a copy.
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    const locked = error instanceof Error && error.name === "PasswordException";
    return failure("damaged", locked ? "The PDF is protected by a password, so its text cannot be read." : "The PDF is damaged: it could not be opened.");
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) return failure("too-many-pages", `The PDF has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are accepted.`);
    const pages: PdfLine[][] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(linesOf(content.items));
      page.cleanup();
      await yieldToEventLoop();
    }
    return buildPdfText(pages);
  } catch {
    return failure("damaged", "The PDF is damaged: some of its pages could not be read.");
  } finally {
    await pdf.destroy();
  }
}

type TextItemLike = { str?: string; height?: number; transform?: number[]; hasEOL?: boolean };

/** PDF.js's text items joined into lines, each with the largest type size on it. */
function linesOf(items: readonly unknown[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let text = "";
  let size = 0;
  const endLine = () => {
    const clean = text.replace(/\s+/g, " ").trim();
    if (clean) lines.push({ text: clean, size });
    text = "";
    size = 0;
  };
  for (const raw of items) {
    const item = raw as TextItemLike;
    if (typeof item.str !== "string") continue;
    text += item.str;
    if (item.str.trim()) size = Math.max(size, Math.abs(item.height || item.transform?.[3] || 0));
    if (item.hasEOL) endLine();
  }
  endLine();
  return lines;
}

function buildPdfText(pages: PdfLine[][]): ExtractionResult {
  if (pages.every((lines) => lines.length === 0)) {
    return failure("no-text-layer", "The PDF has no text layer (it looks scanned): its pages are images, and text is not read from images.");
  }
  const bodySize = mostCommonSize(pages.flat());
  const headingSizes = [
    ...new Set(
      pages
        .flat()
        .filter((line) => isHeadingLine(line, bodySize))
        .map((line) => roundSize(line.size)),
    ),
  ].sort((a, b) => b - a);
  const builder = new TextBuilder();
  const pagesWithoutText: number[] = [];
  pages.forEach((lines, index) => {
    builder.startPage(index + 1);
    if (lines.length === 0) pagesWithoutText.push(index + 1);
    for (const line of lines) {
      if (isHeadingLine(line, bodySize)) {
        builder.heading(Math.min(headingSizes.indexOf(roundSize(line.size)) + 1, MAX_HEADING_LEVELS), line.text);
      } else {
        builder.breakLine();
        builder.append(line.text);
      }
    }
  });
  return builder.finish("pdf", pagesWithoutText);
}

const roundSize = (size: number) => Math.round(size * 2) / 2;

function isHeadingLine(line: PdfLine, bodySize: number): boolean {
  return bodySize > 0 && line.size >= bodySize * HEADING_SIZE_RATIO && line.text.length <= MAX_HEADING_CHARS;
}

/** The type size most of the characters are set in. */
function mostCommonSize(lines: PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const line of lines) chars.set(roundSize(line.size), (chars.get(roundSize(line.size)) ?? 0) + line.text.length);
  let best = 0;
  let bestChars = -1;
  for (const [size, count] of chars) if (count > bestChars) [best, bestChars] = [size, count];
  return best;
}
