// extractDocument on real files made here: a PDF written with pdf-lib (headings in larger type, several
// pages, a page without text), a scanned PDF, a damaged one, a Word document written with docx, and
// HTML, Markdown, CSV and plain text as a person would write them.

import { Document, HeadingLevel, Packer, Paragraph } from "docx";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";

import { makePdf } from "@/test/support/knowledge";
import { DOCX_MEDIA_TYPE, extractDocument, MAX_DOCUMENT_BYTES, MAX_PDF_PAGES, type ExtractedDocument, type ExtractionResult } from "./index";

const utf8 = (text: string) => new TextEncoder().encode(text);

function expectText(result: ExtractionResult): ExtractedDocument {
  if (!result.ok) throw new Error(`expected text, got ${result.reason}: ${result.message}`);
  return result;
}

const pageOf = (document: ExtractedDocument, offset: number) => document.pages.find((page) => offset >= page.start && offset < page.end)?.number;

describe("PDF", () => {
  it("keeps page numbers and headings, with offsets that point at the words", async () => {
    const bytes = await makePdf([
      [
        [24, "Travel policy"],
        [11, "Employees book trains for trips under four hours."],
        [16, "Hotels"],
        [11, "A hotel night costs at most 180 euros."],
      ],
      [], // a page with no text: a scanned insert
      [
        [16, "Meals"],
        [11, "Dinner is paid up to 40 euros."],
      ],
    ]);
    const document = expectText(await extractDocument(bytes, { mediaType: "application/pdf", name: "travel.pdf" }));

    expect(document.pages.map((page) => page.number)).toEqual([1, 2, 3]);
    expect(document.pagesWithoutText).toEqual([2]);
    expect(document.headings.map(({ level, title }) => [level, title])).toEqual([
      [1, "Travel policy"],
      [2, "Hotels"],
      [2, "Meals"],
    ]);
    for (const heading of document.headings) expect(document.text.slice(heading.start, heading.start + heading.title.length)).toBe(heading.title);
    const dinner = document.text.indexOf("Dinner is paid up to 40 euros.");
    expect(pageOf(document, dinner)).toBe(3);
    expect(pageOf(document, document.text.indexOf("180 euros"))).toBe(1);
    expect(document.text.slice(document.pages[0].start, document.pages[0].end)).toContain("Employees book trains");
  });

  it("reports a scanned PDF (no text layer) instead of giving empty text", async () => {
    const bytes = await makePdf([[], []]);
    const result = await extractDocument(bytes, { mediaType: "application/pdf", name: "scan.pdf" });
    expect(result).toMatchObject({ ok: false, reason: "no-text-layer" });
    expect(!result.ok && result.message).toMatch(/scanned/);
  });

  it("reports a damaged PDF", async () => {
    const whole = await makePdf([[[11, "Some text"]]]);
    const result = await extractDocument(whole.slice(0, 200), { mediaType: "application/pdf", name: "broken.pdf" });
    expect(result).toMatchObject({ ok: false, reason: "damaged" });
  });

  it("reads a 300-page PDF while other work still gets turns between its pages", async () => {
    const sentence = "Each page of this long report holds ordinary lines of text about quarterly numbers.";
    const bytes = await makePdf(
      Array.from({ length: 300 }, (_, page) => Array.from({ length: 40 }, (_, line): [number, string] => [9, `${page + 1}.${line + 1} ${sentence}`])),
    );
    let turns = 0;
    let running = true;
    const otherWork = () => {
      turns++;
      if (running) setImmediate(otherWork);
    };
    setImmediate(otherWork);
    const document = expectText(await extractDocument(bytes, { mediaType: "application/pdf", name: "report.pdf" }));
    running = false;
    expect(document.pages).toHaveLength(300);
    expect(pageOf(document, document.text.indexOf("217.5 Each page"))).toBe(217);
    expect(turns).toBeGreaterThanOrEqual(300);
  });

  it("refuses a PDF with too many pages before reading any text", async () => {
    const pdf = await PDFDocument.create();
    for (let i = 0; i <= MAX_PDF_PAGES; i++) pdf.addPage([100, 100]);
    const result = await extractDocument(await pdf.save(), { mediaType: "application/pdf", name: "huge.pdf" });
    expect(result).toMatchObject({ ok: false, reason: "too-many-pages" });
  });
});

describe("DOCX", () => {
  it("takes headings from the document's heading styles", async () => {
    const word = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: "Onboarding", heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: "Every new member gets a laptop on day one." }),
            new Paragraph({ text: "Accounts", heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ text: "Email & chat accounts are made by IT." }),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(word));
    const document = expectText(await extractDocument(bytes, { mediaType: DOCX_MEDIA_TYPE, name: "onboarding.docx" }));
    expect(document.format).toBe("docx");
    expect(document.headings.map(({ level, title }) => [level, title])).toEqual([
      [1, "Onboarding"],
      [2, "Accounts"],
    ]);
    expect(document.text).toContain("Email & chat accounts are made by IT.");
    expect(document.text.slice(document.headings[1].start)).toMatch(/^Accounts\n\nEmail/);
  });

  it("reports a file called .docx that is not one", async () => {
    const result = await extractDocument(utf8("just text"), { mediaType: DOCX_MEDIA_TYPE, name: "fake.docx" });
    expect(result).toMatchObject({ ok: false, reason: "damaged" });
  });
});

describe("HTML", () => {
  it("drops scripts and styles, decodes entities and keeps headings", async () => {
    const html = `<!doctype html><html><head><title>T</title><style>p { color: red }</style></head><body>
      <script>alert("no")</script>
      <h1>Release  notes</h1>
      <p>Fixes &amp; improvements &mdash; see <a href="/x">the list</a>.</p>
      <h2>Version 2.1</h2><ul><li>Faster search</li><li>Dark mode</li></ul>
    </body></html>`;
    const document = expectText(await extractDocument(utf8(html), { mediaType: "text/html", name: "notes.html" }));
    expect(document.text).toBe("Release notes\n\nFixes & improvements — see the list.\n\nVersion 2.1\n\nFaster search\nDark mode");
    expect(document.headings).toEqual([
      { level: 1, title: "Release notes", start: 0 },
      { level: 2, title: "Version 2.1", start: document.text.indexOf("Version 2.1") },
    ]);
  });
});

describe("text encodings", () => {
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

  it("reads an HTML page in the encoding its meta tag declares, and UTF-16 with its byte-order mark", async () => {
    const page = latin1(
      `<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body><h1>Men\u00fc</h1><p>Cr\u00e8me br\u00fbl\u00e9e</p></body></html>`,
    );
    expect(expectText(await extractDocument(page, { mediaType: "text/html", name: "menu.html" })).text).toBe("Men\u00fc\n\nCr\u00e8me br\u00fbl\u00e9e");
    const old = latin1(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"></head><body><p>Gr\u00fc\u00dfe</p></body></html>`);
    expect(expectText(await extractDocument(old, { mediaType: "text/html", name: "old.html" })).text).toBe("Gr\u00fc\u00dfe");
    const utf16 = new Uint8Array([0xff, 0xfe, ...[..."Notes \u00e9t\u00e9"].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(expectText(await extractDocument(utf16, { mediaType: "text/plain", name: "notes.txt" })).text).toBe("Notes \u00e9t\u00e9");
  });

  it("a file that is not UTF-8 and does not say what it is, or names an encoding nobody knows, is refused with the reason", async () => {
    expect(await extractDocument(latin1("Caf\u00e9 au lait"), { mediaType: "text/plain", name: "menu.txt" })).toMatchObject({
      ok: false,
      reason: "damaged",
      message: "The file is not readable text: it is not UTF-8, and it does not say which encoding it uses.",
    });
    const odd = latin1(`<html><head><meta charset="klingon-8"></head><body>Caf\u00e9</body></html>`);
    expect(await extractDocument(odd, { mediaType: "text/html", name: "odd.html" })).toMatchObject({
      ok: false,
      message: expect.stringContaining("“klingon-8”"),
    });
  });
});

describe("Markdown, plain text and CSV", () => {
  it("finds Markdown headings but not lines in a code block", async () => {
    const markdown = "# Guide\r\n\r\nIntro.\r\n\r\n## Setup\r\n\r\n```sh\r\n# not a heading\r\n```\r\n\r\nSetext title\r\n---\r\n";
    const document = expectText(await extractDocument(utf8(markdown), { mediaType: "text/markdown", name: "guide.md" }));
    expect(document.text).not.toContain("\r");
    expect(document.headings.map(({ level, title }) => [level, title])).toEqual([
      [1, "Guide"],
      [2, "Setup"],
      [2, "Setext title"],
    ]);
    expect(document.text.slice(document.headings[1].start)).toMatch(/^## Setup/);
  });

  it("keeps plain text as written", async () => {
    const document = expectText(await extractDocument(utf8("\uFEFFLine one.\nLine two."), { mediaType: "text/plain", name: "a.txt" }));
    expect(document).toMatchObject({ format: "text", text: "Line one.\nLine two.", pages: [{ number: 1, start: 0, end: 19 }] });
  });

  it("puts the header's names beside each CSV row, quoted fields included", async () => {
    const csv = 'Name,Role,Note\nAda,Engineer,"Likes ""tea"", and maths"\nGrace,Admiral,"Two\nlines"\n';
    const document = expectText(await extractDocument(utf8(csv), { mediaType: "text/csv", name: "people.csv" }));
    expect(document.text).toBe('Row 1 — Name: Ada; Role: Engineer; Note: Likes "tea", and maths\nRow 2 — Name: Grace; Role: Admiral; Note: Two lines');
  });
});

describe("limits and formats", () => {
  it("refuses a file over the size limit before reading it", async () => {
    const result = await extractDocument(new Uint8Array(MAX_DOCUMENT_BYTES + 1), { mediaType: "text/plain", name: "big.txt" });
    expect(result).toMatchObject({ ok: false, reason: "too-large" });
  });

  it("refuses an image and a file that is not text", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
    expect(await extractDocument(png, { mediaType: "image/png", name: "a.png" })).toMatchObject({ ok: false, reason: "unsupported" });
    expect(await extractDocument(new Uint8Array([0x41, 0xc3, 0x28, 0x00]), { mediaType: "text/plain", name: "a.txt" })).toMatchObject({
      ok: false,
      reason: "damaged",
    });
    expect(await extractDocument(utf8("{}"), { mediaType: "application/zip", name: "a.zip" })).toMatchObject({ ok: false, reason: "unsupported" });
  });

  it("reports a document with nothing but whitespace", async () => {
    expect(await extractDocument(utf8("  \n\n "), { mediaType: "text/plain", name: "blank.txt" })).toMatchObject({ ok: false, reason: "no-text-layer" });
  });
});
