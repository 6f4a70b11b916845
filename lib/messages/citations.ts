// Citations: the sources a message cites, numbered 1, 2, 3… in order of first appearance (one number
// per URL), stored as Citation rows and sent to the browser in the message metadata, live and on
// reload. Two producers: provider-native web search (URL sources in the turn's stream, collected by
// `citationCollector`) and MCP results (`recordCitations(messageId, items)` from the tool layer).
import type { TextStreamPart, ToolSet } from "ai";
import { db } from "../db/client";
import type { CitationOrigin } from "../db/generated/client";

export type CitationInput = { url: string; title?: string | null; snippet?: string | null; origin: CitationOrigin; blockId?: string | null };

/** A numbered citation as the browser sees it. */
export type CitationView = { n: number; url: string; title?: string; snippet?: string; origin: CitationOrigin };

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
    if (!isHttpUrl(item.url) || item.url.length > 2000) continue;
    const seen = byUrl.get(item.url);
    const title = clean(item.title, 300);
    const snippet = clean(item.snippet, 1000);
    if (seen) {
      seen.title ??= title;
      seen.snippet ??= snippet;
      continue;
    }
    if (out.length >= MAX_PER_MESSAGE) break;
    const c: CitationView = { n: out.length + 1, url: item.url, origin: item.origin, ...(title ? { title } : {}), ...(snippet ? { snippet } : {}) };
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
  return {
    /** Citations found outside the stream (an MCP tool's result, as it returns). */
    addLater(items: CitationInput[]) {
      later = later.concat(items);
    },
    /** The new numbered list after this part (its own citations, and those added later), if it changed. */
    take(part: TextStreamPart<ToolSet>): CitationView[] | undefined {
      const own = this.add(part);
      if (own || !later.length) return own;
      const items = later;
      later = [];
      return this.addItems(items);
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

function toView(r: { ordinal: number; url: string; title: string | null; snippet: string | null; origin: CitationOrigin }): CitationView {
  return { n: r.ordinal, url: r.url, origin: r.origin, ...(r.title ? { title: r.title } : {}), ...(r.snippet ? { snippet: r.snippet } : {}) };
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
    cited.map((c) => ({ url: c.url, title: c.title, snippet: c.snippet, origin: c.origin, blockId: blockOf.get(c.url) })),
  );
}

export { toView as citationView };
