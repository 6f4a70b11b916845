// An HTML page's readable text through htmlparser2: scripts, styles and other invisible parts dropped,
// entities decoded, whitespace collapsed as a browser would, headings (h1–h6) kept with their level,
// block elements as paragraphs, list items and table rows as lines. DOCX goes through here too
// (mammoth turns it into HTML).

import { Parser } from "htmlparser2";

import { TextBuilder } from "./text-builder";
import type { DocumentFormat, ExtractedDocument } from "./types";

const INVISIBLE = new Set(["script", "style", "noscript", "template", "head", "svg", "iframe", "object", "canvas"]);
const LINE_BLOCKS = new Set(["li", "tr", "dt", "dd", "option"]);
const PARAGRAPH_BLOCKS = new Set([
  "p",
  "div",
  "section",
  "article",
  "main",
  "header",
  "footer",
  "aside",
  "nav",
  "blockquote",
  "pre",
  "ul",
  "ol",
  "dl",
  "table",
  "figure",
  "figcaption",
  "form",
  "fieldset",
  "address",
  "details",
  "summary",
  "hr",
  "body",
]);
const CELLS = new Set(["td", "th"]);

export function extractHtml(html: string, format: DocumentFormat = "html"): ExtractedDocument {
  const builder = new TextBuilder();
  let hidden = 0;
  let preformatted = 0;
  let line = "";
  let heading: { level: number; text: string } | undefined;

  const flushLine = () => {
    const text = preformatted > 0 ? line.replace(/^\n+|\s+$/g, "") : line.replace(/\s+/g, " ").trim();
    line = "";
    if (!text) return;
    builder.append(text);
  };
  const endBlock = (blankLine: boolean) => {
    flushLine();
    builder.breakLine(blankLine);
  };

  const parser = new Parser(
    {
      onopentag(name) {
        if (INVISIBLE.has(name)) hidden++;
        if (hidden > 0) return;
        const level = /^h([1-6])$/.exec(name)?.[1];
        if (level) {
          endBlock(true);
          heading = { level: Number(level), text: "" };
        } else if (name === "br") {
          if (heading) heading.text += " ";
          else endBlock(false);
        } else if (LINE_BLOCKS.has(name)) endBlock(false);
        else if (PARAGRAPH_BLOCKS.has(name)) endBlock(true);
        else if (CELLS.has(name) && line.trim()) line += " | ";
        if (name === "pre") preformatted++;
      },
      ontext(text) {
        if (hidden > 0) return;
        if (heading) heading.text += text;
        else line += text;
      },
      onclosetag(name) {
        if (INVISIBLE.has(name)) {
          hidden = Math.max(0, hidden - 1);
          return;
        }
        if (hidden > 0) return;
        if (/^h[1-6]$/.test(name) && heading) {
          builder.heading(heading.level, heading.text.replace(/\s+/g, " ").trim());
          heading = undefined;
        } else if (LINE_BLOCKS.has(name)) endBlock(false);
        else if (PARAGRAPH_BLOCKS.has(name)) endBlock(true);
        if (name === "pre") preformatted = Math.max(0, preformatted - 1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flushLine();
  return trimEnd(builder.finish(format));
}

/** The text without the blank lines the last block left. */
function trimEnd(document: ExtractedDocument): ExtractedDocument {
  const text = document.text.replace(/\s+$/, "");
  return { ...document, text, pages: document.pages.map((page) => ({ ...page, end: Math.min(page.end, text.length) })) };
}
