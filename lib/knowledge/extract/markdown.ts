// Markdown and plain text: the text is the file's own (line ends made \n, a BOM dropped), so a citation
// highlights exactly what the author wrote. Markdown's headings (ATX `#` and Setext underlines) are
// found outside fenced code blocks.

import { TextBuilder } from "./text-builder";
import type { ExtractedDocument } from "./types";

/** A text file's text as extracted: \r\n and \r made \n, without a leading BOM. */
export function normalizeText(text: string): string {
  return text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
}

export function extractPlainText(source: string): ExtractedDocument {
  const builder = new TextBuilder();
  builder.append(normalizeText(source));
  return builder.finish("text");
}

export function extractMarkdown(source: string): ExtractedDocument {
  const text = normalizeText(source);
  const builder = new TextBuilder();
  builder.append(text);
  const lines = text.split("\n");
  let offset = 0;
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (!fence || fenceMark.startsWith(fence))) fence = fence ? undefined : fenceMark;
    else if (!fence) {
      const atx = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
      const underline = /^ {0,3}(=+|-+)[ \t]*$/.exec(lines[i + 1] ?? "");
      if (atx?.[2]) builder.markHeading(atx[1].length, atx[2], offset);
      else if (underline && line.trim() && !/^ {0,3}([-*_>]|\d+[.)])/.test(line)) builder.markHeading(underline[1][0] === "=" ? 1 : 2, line.trim(), offset);
    }
    offset += line.length + 1;
  }
  return builder.finish("markdown");
}
