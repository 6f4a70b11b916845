// A document's extracted text cut into passages for search and citations. Sizes are in characters
// (about four to a token: the target of 1,600 is about 400 tokens). Cuts fall at headings and page
// ends first, so a passage has one page and one heading path; inside a section at paragraphs, then
// sentences, then lines, then spaces. Each passage after the first of a section starts a little
// earlier (the overlap) so a sentence cut in two is whole in one of them. Every chunk's text is exactly
// `text.slice(start, end)` of the extracted text, which is what a citation's highlight relies on.

import type { ExtractedDocument } from "./extract/types";

export type Chunk = { ordinal: number; text: string; start: number; end: number; page: number; headingPath: string[] };

export type ChunkSizes = { targetChars: number; maxChars: number; overlapChars: number };

export const DEFAULT_CHUNK_SIZES: ChunkSizes = { targetChars: 1_600, maxChars: 2_400, overlapChars: 200 };

type Range = { start: number; end: number };
type Section = Range & { page: number; headingPath: string[] };

/** Where a piece may be cut, from the most to the least natural: after each match. */
const CUT_PLACES = [/\n[ \t]*\n\s*/g, /[.!?…。！？]["'”’)\]]*\s+/g, /\n\s*/g, /\s+/g];

export function chunkDocument(document: Pick<ExtractedDocument, "text" | "pages" | "headings">, sizes: ChunkSizes = DEFAULT_CHUNK_SIZES): Chunk[] {
  const { text } = document;
  const chunks: Chunk[] = [];
  for (const section of sectionsOf(document)) {
    const pieces = CUT_PLACES.reduce<Range[]>((ranges, place) => ranges.flatMap((range) => cutAt(text, range, place, sizes.maxChars)), [section]);
    const packed = pack(
      pieces.flatMap((piece) => cutHard(text, piece, sizes.maxChars)),
      sizes.targetChars,
    );
    packed.forEach((range, index) => {
      const start = index === 0 ? range.start : overlapStart(text, range.start, Math.max(section.start, range.start - sizes.overlapChars));
      const trimmed = trim(text, { start, end: range.end });
      if (trimmed.end > trimmed.start) {
        chunks.push({ ordinal: chunks.length, text: text.slice(trimmed.start, trimmed.end), ...trimmed, page: section.page, headingPath: section.headingPath });
      }
    });
  }
  return chunks;
}

/** The text cut at every heading and every page's start and end; a section holding only a heading joins the next. */
function sectionsOf({ text, pages, headings }: Pick<ExtractedDocument, "text" | "pages" | "headings">): Section[] {
  const sortedHeadings = [...headings].sort((a, b) => a.start - b.start);
  const headingAt = new Map(sortedHeadings.map((heading) => [heading.start, heading]));
  const sortedPages = [...pages].sort((a, b) => a.start - b.start);
  const pageEdges = new Set(pages.flatMap((page) => [page.start, page.end]));
  const cuts = [...new Set([0, text.length, ...pageEdges, ...headingAt.keys()])].filter((offset) => offset >= 0 && offset <= text.length).sort((a, b) => a - b);
  const path: { level: number; title: string }[] = [];
  let nextHeading = 0;
  let pageIndex = 0;
  const sections: Section[] = [];
  let start = 0;
  for (let i = 1; i < cuts.length; i++) {
    const end = cuts[i];
    const heading = headingAt.get(start);
    const headingLineEnd = text.indexOf("\n", start);
    const onlyHeading = heading && (headingLineEnd < 0 || headingLineEnd >= end || !text.slice(headingLineEnd, end).trim());
    if (onlyHeading && !pageEdges.has(end) && end < text.length) continue; // keep the heading with what follows it
    for (; nextHeading < sortedHeadings.length && sortedHeadings[nextHeading].start < end; nextHeading++) {
      const next = sortedHeadings[nextHeading];
      while (path.length > 0 && path[path.length - 1].level >= next.level) path.pop();
      path.push(next);
    }
    while (pageIndex + 1 < sortedPages.length && sortedPages[pageIndex + 1].start <= start) pageIndex++;
    const page = sortedPages[pageIndex]?.number ?? 1;
    if (text.slice(start, end).trim()) sections.push({ start, end, page, headingPath: path.map((h) => h.title) });
    start = end;
  }
  return sections;
}

/** A range longer than maxChars cut after each match of `place`; shorter ranges as they are. */
function cutAt(text: string, range: Range, place: RegExp, maxChars: number): Range[] {
  if (range.end - range.start <= maxChars) return [range];
  const ranges: Range[] = [];
  let start = range.start;
  const matcher = new RegExp(place.source, "g");
  const slice = text.slice(range.start, range.end);
  for (const match of slice.matchAll(matcher)) {
    const end = range.start + match.index + match[0].length;
    if (end > start && end < range.end) {
      ranges.push({ start, end });
      start = end;
    }
  }
  ranges.push({ start, end: range.end });
  return ranges;
}

/** The last resort: pieces of maxChars, never splitting a surrogate pair. */
function cutHard(text: string, range: Range, maxChars: number): Range[] {
  const ranges: Range[] = [];
  let start = range.start;
  while (range.end - start > maxChars) {
    let end = start + maxChars;
    if (end - 1 > start && /[\uDC00-\uDFFF]/.test(text[end])) end--;
    ranges.push({ start, end });
    start = end;
  }
  ranges.push({ start, end: range.end });
  return ranges;
}

/** Consecutive pieces joined while the whole stays within the target. */
function pack(pieces: Range[], targetChars: number): Range[] {
  const packed: Range[] = [];
  for (const piece of pieces) {
    const last = packed[packed.length - 1];
    if (last && piece.end - last.start <= targetChars) last.end = piece.end;
    else packed.push({ ...piece });
  }
  return packed;
}

/** Where an overlap begins: at the start of a word at or after `earliest`, or no overlap if there is none. */
function overlapStart(text: string, start: number, earliest: number): number {
  if (earliest === 0 || /\s/.test(text[earliest - 1])) return earliest;
  for (let i = earliest; i < start; i++) if (/\s/.test(text[i])) return i + 1;
  return start;
}

function trim(text: string, { start, end }: Range): Range {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}
