// What the passage viewer reads: a document the caller may see (404 otherwise, as for a base they cannot
// see: access.ts), with its current version's text and where each page lies in it, and its original
// file. Which page a citation opens and which part of it is marked: `passageView`.
import { db } from "../db/client";
import { NotFound } from "../errors";
import { visibleBases, type Caller } from "./access";

export type ViewerPage = { number: number; start: number; end: number };

export type ViewerDocument = {
  id: string;
  name: string;
  mediaType: string;
  version: number;
  status: string;
  baseName: string;
  text: string;
  pages: ViewerPage[];
};

/** The document as the viewer shows it; before it is indexed it has no text and no pages. */
export async function viewerDocument(ctx: Caller, documentId: string): Promise<ViewerDocument> {
  const prisma = await db();
  const doc = await prisma.knowledgeDocument.findFirst({
    where: { id: documentId, base: visibleBases(ctx) },
    select: { id: true, name: true, mediaType: true, version: true, status: true, text: true, pageRanges: true, base: { select: { name: true } } },
  });
  if (!doc) throw NotFound("No such document.");
  const text = doc.text ?? "";
  const ranges = Array.isArray(doc.pageRanges) ? (doc.pageRanges as [number, number][]) : text ? [[0, text.length] as [number, number]] : [];
  return {
    id: doc.id,
    name: doc.name,
    mediaType: doc.mediaType,
    version: doc.version,
    status: doc.status,
    baseName: doc.base.name,
    text,
    pages: ranges.map(([start, end], i) => ({ number: i + 1, start, end })),
  };
}

/** The original file of a document the caller may see. */
export async function documentFile(ctx: Caller, documentId: string) {
  const prisma = await db();
  const doc = await prisma.knowledgeDocument.findFirst({
    where: { id: documentId, base: visibleBases(ctx) },
    select: { name: true, mediaType: true, content: true },
  });
  if (!doc) throw NotFound("No such document.");
  return { name: doc.name, mediaType: doc.mediaType, bytes: doc.content };
}

export type PassageRequest = { version?: number; from?: number; to?: number; page?: number };

/**
 * The page to show and the part of it to mark: a citation's range (when it cites the current version)
 * opens its page with it marked; a page number opens that page; else the first. `stale` says the
 * citation is of an older version (the document was replaced since): nothing is marked then.
 */
export function passageView(doc: Pick<ViewerDocument, "version" | "pages" | "text">, asked: PassageRequest) {
  const cited = asked.from !== undefined && asked.to !== undefined && asked.to > asked.from;
  const stale = cited && asked.version !== undefined && asked.version !== doc.version;
  const range = cited && !stale && asked.to! <= doc.text.length ? { start: asked.from!, end: asked.to! } : undefined;
  const pageOf = (offset: number) => doc.pages.find((p) => offset >= p.start && offset < p.end) ?? doc.pages.at(-1);
  const page = range ? pageOf(range.start) : (doc.pages.find((p) => p.number === asked.page) ?? doc.pages[0]);
  const mark = range && page ? { start: Math.max(range.start, page.start), end: Math.min(range.end, page.end) } : undefined;
  return { page, mark: mark && mark.end > mark.start ? mark : undefined, stale };
}
