// Citations: the sources a message cites, numbered 1, 2, 3… in order of first appearance (one number
// per URL), stored as Citation rows and sent to the browser in the message metadata, live and on
// reload. Three producers: provider-native web search (URL sources in the turn's stream, collected by
// `citationCollector`), MCP results (URLs in a result, `addLater`) and knowledge passages (`cite`, which
// numbers them at once so the model is told each passage's number; their address is the passage viewer's).
import type { TextStreamPart, ToolSet } from "ai";
import { db } from "../db/client";
import type { CitationOrigin } from "../db/generated/client";

/** A knowledge passage a citation points at: its document's version, page and character range. */
export type CitedPassage = { documentId: string; version: number; page: number | null; charStart: number; charEnd: number };

export type CitationInput = {
  url: string;
  title?: string | null;
  snippet?: string | null;
  origin: CitationOrigin;
  blockId?: string | null;
  passage?: CitedPassage;
};

/** A numbered citation as the browser sees it. */
export type CitationView = { n: number; url: string; title?: string; snippet?: string; origin: CitationOrigin; passage?: CitedPassage };

/** The passage viewer's own addresses (origin knowledge), the one kind of citation that is not http(s). */
const PASSAGE_URL = /^\/knowledge\/documents\/[^/?#]+\?v=\d+&from=\d+&to=\d+$/;

const MAX_PER_MESSAGE = 200;

function clean(s: string | null | undefined, max: number): string | undefined {
  const t = s?.replace(/\s+/g, " ").trim();
  return t ? t.slice(0, max) : undefined;
}

function isHttpUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Numbers citations in order of first appearance: a URL seen before keeps its number (and gains a
 * title or snippet it lacked). `existing` are the citations already numbered for the message.
 */
function numberCitations(items: CitationInput[], existing: CitationView[] = []): CitationView[] {
  const out = existing.map((c) => ({ ...c }));
  const byUrl = new Map(out.map((c) => [c.url, c]));
  for (const item of items) {
    const passage = item.origin === "knowledge" && PASSAGE_URL.test(item.url);
    if ((!passage && !isHttpUrl(item.url)) || item.url.length > 2000) continue;
    const seen = byUrl.get(item.url);
    const title = clean(item.title, 300);
    const snippet = clean(item.snippet, 1000);
    if (seen) {
      seen.title ??= title;
      seen.snippet ??= snippet;
      continue;
    }
    if (out.length >= MAX_PER_MESSAGE) break;
    const c: CitationView = {
      n: out.length + 1,
      url: item.url,
      origin: item.origin,
      ...(title ? { title } : {}),
      ...(snippet ? { snippet } : {}),
      ...(passage && item.passage ? { passage: item.passage } : {}),
    };
    out.push(c);
    byUrl.set(c.url, c);
  }
  return out;
}

type UrlCitationAnnotation = { type: string; url?: string; title?: string; start_index?: number };

/**
 * Collects the URL citations of a streaming turn from its stream parts: `source` parts (URL sources),
 * and the url_citation annotations OpenAI attaches to a finished text part. `add` returns the new
 * numbered list when it changed, else undefined.
 */
export function citationCollector() {
  let list: CitationView[] = [];
  /** Citations of MCP results, numbered with the next stream part (see `take`). */
  let later: CitationInput[] = [];
  /** The list changed outside the stream (`cite`): sent with the next stream part. */
  let unsent = false;
  return {
    /** Citations found outside the stream (an MCP tool's result, as it returns). */
    addLater(items: CitationInput[]) {
      later = later.concat(items);
    },
    /** The new numbered list after this part (its own citations, and those added later), if it changed. */
    /** Numbers citations now (knowledge passages a tool gives the model); each item's number, in order. */
    cite(items: CitationInput[]): number[] {
      if (this.addItems(items)) unsent = true;
      const byUrl = new Map(list.map((c) => [c.url, c.n]));
      return items.map((i) => byUrl.get(i.url) ?? 0);
    },
    take(part: TextStreamPart<ToolSet>): CitationView[] | undefined {
      const own = this.add(part);
      const fromLater = later.length ? this.addItems(later.splice(0)) : undefined;
      if (!own && !fromLater && !unsent) return undefined;
      unsent = false;
      return list;
    },
    add(part: TextStreamPart<ToolSet>): CitationView[] | undefined {
      let items: CitationInput[] = [];
      if (part.type === "source" && part.sourceType === "url") {
        items = [{ url: part.url, title: part.title, origin: "provider_search" }];
      } else if (part.type === "text-end") {
        const annotations = (part.providerMetadata?.openai as { annotations?: UrlCitationAnnotation[] } | undefined)?.annotations ?? [];
        items = annotations
          .filter((a) => a.type === "url_citation" && typeof a.url === "string")
          .sort((a, b) => (a.start_index ?? 0) - (b.start_index ?? 0))
          .map((a) => ({ url: a.url!, title: a.title, origin: "provider_search" as const }));
      }
      return this.addItems(items);
    },
    /** Citations from elsewhere in the turn (URLs in MCP tool results), numbered in the same list. */
    addItems(items: CitationInput[]): CitationView[] | undefined {
      if (!items.length) return undefined;
      const next = numberCitations(items, list);
      const changed = next.length !== list.length || next.some((c, i) => c.title !== list[i]?.title);
      list = next;
      return changed ? list : undefined;
    },
    get list() {
      return list;
    },
  };
}

/**
 * Stores citations of a message, numbered after the ones it already has (a URL already cited keeps its
 * number). Returns the message's full numbered list. Safe to call several times while a turn runs.
 */
async function recordCitations(messageId: string, items: CitationInput[]): Promise<CitationView[]> {
  const prisma = await db();
  for (let attempt = 0; ; attempt++) {
    try {
      return await prisma.$transaction(async (tx) => {
        const rows = await tx.citation.findMany({ where: { messageId }, orderBy: { ordinal: "asc" } });
        const existing = rows.map(toView);
        const next = numberCitations(items, existing);
        const blockOf = new Map(items.filter((i) => i.blockId).map((i) => [i.url, i.blockId!]));
        const fresh = next.slice(existing.length);
        if (fresh.length) {
          await tx.citation.createMany({
            data: fresh.map((c) => ({
              messageId,
              ordinal: c.n,
              url: c.url,
              title: c.title ?? null,
              snippet: c.snippet ?? null,
              origin: c.origin,
              blockId: blockOf.get(c.url) ?? null,
              knowledgeDocumentId: c.passage?.documentId ?? null,
              documentVersion: c.passage?.version ?? null,
              page: c.passage?.page ?? null,
              charStart: c.passage?.charStart ?? null,
              charEnd: c.passage?.charEnd ?? null,
            })),
          });
        }
        for (const c of next.slice(0, existing.length)) {
          const before = existing[c.n - 1];
          if (c.title !== before.title || c.snippet !== before.snippet) {
            await tx.citation.updateMany({ where: { messageId, ordinal: c.n }, data: { title: c.title ?? null, snippet: c.snippet ?? null } });
          }
        }
        return next;
      });
    } catch (err) {
      // Two writers numbering the same message at once: the unique (messageId, ordinal) refuses one; retry.
      if (attempt < 2 && (err as { code?: string }).code === "P2002") continue;
      throw err;
    }
  }
}

type CitationRow = {
  ordinal: number;
  url: string;
  title: string | null;
  snippet: string | null;
  origin: CitationOrigin;
  documentVersion?: number | null;
  page?: number | null;
  charStart?: number | null;
  charEnd?: number | null;
};

/** The passage a stored citation points at; its document may be gone since (the row keeps its place). */
function passageOf(r: CitationRow): CitedPassage | undefined {
  const id = r.origin === "knowledge" ? /^\/knowledge\/documents\/([^/?#]+)\?/.exec(r.url)?.[1] : undefined;
  if (!id || r.documentVersion == null || r.charStart == null || r.charEnd == null) return undefined;
  return { documentId: decodeURIComponent(id), version: r.documentVersion, page: r.page ?? null, charStart: r.charStart, charEnd: r.charEnd };
}

function toView(r: CitationRow): CitationView {
  const passage = passageOf(r);
  return {
    n: r.ordinal,
    url: r.url,
    origin: r.origin,
    ...(r.title ? { title: r.title } : {}),
    ...(r.snippet ? { snippet: r.snippet } : {}),
    ...(passage ? { passage } : {}),
  };
}

/**
 * At the end of a turn: stores the citations its stream collected, each linked to the source block
 * that carried its URL (when there is one).
 */
export async function storeTurnCitations(messageId: string, cited: CitationView[]): Promise<CitationView[]> {
  const prisma = await db();
  const blocks = await prisma.block.findMany({ where: { messageId, kind: "source" }, select: { id: true, url: true }, orderBy: { ordinal: "asc" } });
  const blockOf = new Map<string, string>();
  for (const b of blocks) if (b.url && !blockOf.has(b.url)) blockOf.set(b.url, b.id);
  return recordCitations(
    messageId,
    cited.map((c) => ({ url: c.url, title: c.title, snippet: c.snippet, origin: c.origin, blockId: blockOf.get(c.url), passage: c.passage })),
  );
}

export { toView as citationView };
