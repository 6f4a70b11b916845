// chunkDocument on documents a person would write (a Markdown guide, a PDF with pages) and, with
// fast-check, on any text with any pages and headings: every chunk is exactly its slice of the text,
// stays on one page, within its size, and together the chunks leave no word out.

import fc from "fast-check";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";

import { chunkDocument, DEFAULT_CHUNK_SIZES, type ChunkSizes } from "./chunk";
import { extractDocument, type ExtractedDocument, type Heading, type PageRange } from "./extract";

async function extracted(bytes: Uint8Array, mediaType: string, name: string): Promise<ExtractedDocument> {
  const result = await extractDocument(bytes, { mediaType, name });
  if (!result.ok) throw new Error(result.message);
  return result;
}

const sentence = (n: number) => `Sentence number ${n} says something about the travel policy. `;

describe("chunkDocument", () => {
  it("gives each passage of a Markdown guide its heading path, keeping a heading with its text", async () => {
    const markdown = [
      "# Handbook",
      "",
      "Welcome to the team.",
      "",
      "## Travel",
      "",
      "### Trains",
      "",
      "Second class for trips under four hours.",
      "",
      "## Money",
      "",
      "Expenses are claimed monthly.",
    ].join("\n");
    const document = await extracted(new TextEncoder().encode(markdown), "text/markdown", "handbook.md");
    const chunks = chunkDocument(document);
    expect(chunks.map((chunk) => [chunk.headingPath, chunk.text])).toEqual([
      [["Handbook"], "# Handbook\n\nWelcome to the team."],
      [["Handbook", "Travel", "Trains"], "## Travel\n\n### Trains\n\nSecond class for trips under four hours."],
      [["Handbook", "Money"], "## Money\n\nExpenses are claimed monthly."],
    ]);
    for (const chunk of chunks) expect(document.text.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });

  it("cuts a long section at sentences with an overlap, and never across a PDF's pages", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let p = 0; p < 2; p++) {
      const page = pdf.addPage([595, 842]);
      for (let line = 0; line < 40; line++) page.drawText(sentence(p * 40 + line), { x: 20, y: 800 - line * 18, size: 9, font });
    }
    const document = await extracted(await pdf.save(), "application/pdf", "policy.pdf");
    const chunks = chunkDocument(document, { targetChars: 600, maxChars: 900, overlapChars: 120 });

    expect(new Set(chunks.map((chunk) => chunk.page))).toEqual(new Set([1, 2]));
    for (const chunk of chunks) {
      const page = document.pages.find((p) => p.number === chunk.page)!;
      expect(chunk.start).toBeGreaterThanOrEqual(page.start);
      expect(chunk.end).toBeLessThanOrEqual(page.end);
      expect(chunk.text).toMatch(/\.$/); // cut after a sentence, not inside one
      expect(chunk.text.length).toBeLessThanOrEqual(900 + 120);
    }
    const onPageOne = chunks.filter((chunk) => chunk.page === 1);
    expect(onPageOne.length).toBeGreaterThan(2);
    expect(onPageOne[1].start).toBeLessThan(onPageOne[0].end); // the overlap
    expect(chunks.find((chunk) => chunk.text.includes("Sentence number 41 "))?.page).toBe(2);
  });
});

/** A text with pages tiling it and headings at line starts, from random words and lines. */
const documents = fc
  .record({
    lines: fc.array(
      fc.oneof(fc.string({ maxLength: 120 }), fc.constant(""), fc.constant("A short sentence. Another one! "), fc.string({ unit: "grapheme", maxLength: 300 })),
      {
        maxLength: 60,
      },
    ),
    pageCuts: fc.array(fc.nat(), { maxLength: 6 }),
    headingLines: fc.array(fc.record({ line: fc.nat(), level: fc.integer({ min: 1, max: 4 }) }), { maxLength: 8 }),
  })
  .map(({ lines, pageCuts, headingLines }) => {
    const text = lines.join("\n");
    const lineStarts = lines.map((_, i) => lines.slice(0, i).reduce((sum, line) => sum + line.length + 1, 0));
    const cuts = [...new Set(pageCuts.map((cut) => (text.length === 0 ? 0 : cut % text.length)))].sort((a, b) => a - b).filter((cut) => cut > 0);
    const edges = [0, ...cuts, text.length];
    const pages: PageRange[] = edges.slice(1).map((end, i) => ({ number: i + 1, start: edges[i], end }));
    const headings: Heading[] = headingLines
      .filter(({ line }) => lines.length > 0 && lines[line % lines.length])
      .map(({ line, level }) => ({ level, title: lines[line % lines.length], start: lineStarts[line % lines.length] }));
    return { text, pages, headings };
  });

const sizes = fc
  .record({ targetChars: fc.integer({ min: 1, max: 400 }), extra: fc.integer({ min: 0, max: 200 }), overlapChars: fc.integer({ min: 0, max: 100 }) })
  .map(({ targetChars, extra, overlapChars }): ChunkSizes => ({ targetChars, maxChars: targetChars + extra, overlapChars }));

describe("chunkDocument on any document", () => {
  it("gives chunks that are exactly their slice of the text, on one page, within size, in order, leaving no word out", () => {
    fc.assert(
      fc.property(documents, sizes, (document, chunkSizes) => {
        const chunks = chunkDocument(document, chunkSizes);
        const covered = new Uint8Array(document.text.length);
        chunks.forEach((chunk, index) => {
          expect(chunk.ordinal).toBe(index);
          expect(chunk.text).toBe(document.text.slice(chunk.start, chunk.end));
          expect(chunk.text.trim()).toBe(chunk.text);
          expect(chunk.text.length).toBeGreaterThan(0);
          expect(chunk.end - chunk.start).toBeLessThanOrEqual(chunkSizes.maxChars + chunkSizes.overlapChars);
          const page = document.pages.find((p) => p.number === chunk.page)!;
          expect(chunk.start >= page.start && chunk.end <= page.end).toBe(true);
          covered.fill(1, chunk.start, chunk.end);
        });
        for (let i = 0; i < document.text.length; i++) if (!/\s/.test(document.text[i])) expect(covered[i], `offset ${i} is in no chunk`).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it("uses the default sizes of about 400 tokens", () => {
    const text = Array.from({ length: 200 }, (_, i) => sentence(i)).join("");
    const chunks = chunkDocument({ text, pages: [{ number: 1, start: 0, end: text.length }], headings: [] });
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(DEFAULT_CHUNK_SIZES.targetChars + DEFAULT_CHUNK_SIZES.overlapChars);
    expect(chunks.length).toBeGreaterThan(text.length / DEFAULT_CHUNK_SIZES.targetChars);
  });
});
