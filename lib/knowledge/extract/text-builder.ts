// Builds a document's extracted text piece by piece while recording where its headings and pages start,
// so every offset is an exact index into the finished text. Used by every format module.

import type { DocumentFormat, ExtractedDocument, Heading, PageRange } from "./types";

export class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private tail = "";
  private readonly headings: Heading[] = [];
  private readonly pages: PageRange[] = [];
  private pageStart: { number: number; start: number } | undefined;

  get size(): number {
    return this.length;
  }

  /** Appends text as it is. */
  append(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.length += text.length;
    this.tail = (this.tail + text).slice(-2);
  }

  /** Ends the current line, or the current paragraph (a blank line) when `blankLine`; nothing at the start. */
  breakLine(blankLine = false): void {
    if (this.length === 0 || (this.pageStart && this.pageStart.start === this.length)) return;
    const wanted = blankLine ? 2 : 1;
    let have = 0;
    while (have < this.tail.length && this.tail[this.tail.length - 1 - have] === "\n") have++;
    this.append("\n".repeat(Math.max(0, wanted - have)));
  }

  /** A paragraph of text, on its own, followed by a blank line. */
  paragraph(text: string): void {
    if (!text.trim()) return;
    this.breakLine(true);
    this.append(text);
    this.breakLine(true);
  }

  /** A heading on its own line; its start is recorded. */
  heading(level: number, title: string): void {
    if (!title.trim()) return;
    this.breakLine(true);
    this.headings.push({ level, title, start: this.length });
    this.append(title);
    this.breakLine(true);
  }

  /** Records a heading whose title is already in the text at `start` (Markdown keeps its own source). */
  markHeading(level: number, title: string, start: number): void {
    this.headings.push({ level, title, start });
  }

  startPage(number: number): void {
    this.endPage();
    this.breakLine(true);
    this.pageStart = { number, start: this.length };
  }

  endPage(): void {
    if (!this.pageStart) return;
    this.pages.push({ number: this.pageStart.number, start: this.pageStart.start, end: this.length });
    this.pageStart = undefined;
  }

  finish(format: DocumentFormat, pagesWithoutText: number[] = []): ExtractedDocument {
    this.endPage();
    const text = this.parts.join("");
    const pages = this.pages.length > 0 ? this.pages : [{ number: 1, start: 0, end: text.length }];
    return { ok: true, format, text, pages, headings: this.headings, pagesWithoutText };
  }
}
