// Retrieval for a chat: the passages of its bases that best answer a question, as the knowledge-search
// tool and automatic retrieval both use them. Bases embedded by different models are searched per
// model (the question embedded once by each) and their passages merged by fused score. An embedding
// server that is down does not fail the search: it ranks by words alone and says so (`degraded`).
// Each passage also gets what a citation of it is (`passageCitation`): the viewer's address of the
// document's version and character range, its name and page as the title, its first words as snippet.
import { embedQuery, EmbeddingError } from "./embed";
import { searchKnowledge, type Passage } from "./search";
import type { Caller } from "./access";
import type { SearchableBase } from "./chat-bases";
import { passagePlace } from "../format/knowledge-result";

/** The passages one search gives the model by default, and at most. */
export const DEFAULT_PASSAGES = 5;
export const MAX_TOOL_PASSAGES = 10;
/** How long embedding a question may take before the search goes on by words alone. */
const QUERY_EMBED_TIMEOUT_MS = 15_000;

export type Retrieved = { passages: Passage[]; degraded?: string };

export async function retrievePassages(ctx: Caller, bases: readonly SearchableBase[], query: string, limit: number, signal?: AbortSignal): Promise<Retrieved> {
  const groups = new Map<string, SearchableBase[]>();
  for (const b of bases) {
    const key = `${b.embeddingProvider?.id ?? "-"}\u0000${b.embeddingModel}\u0000${b.embeddingDimensions}`;
    groups.set(key, [...(groups.get(key) ?? []), b]);
  }
  let degraded: string | undefined;
  const lists = await Promise.all(
    [...groups.values()].map(async (group) => {
      const first = group[0];
      let queryEmbedding: number[] | undefined;
      if (first.embeddingProvider) {
        const target = { provider: first.embeddingProvider, modelId: first.embeddingModel, dimensions: first.embeddingDimensions };
        queryEmbedding = await embedQuery(target, query, { signal, timeoutMs: QUERY_EMBED_TIMEOUT_MS }).catch((err: unknown) => {
          if (!(err instanceof EmbeddingError)) throw err;
          degraded = `Searched by words only: ${err.message}`;
          return undefined;
        });
      }
      return searchKnowledge(ctx, { baseIds: group.map((b) => b.id), query, queryEmbedding, limit });
    }),
  );
  const passages = lists
    .flat()
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  return degraded ? { passages, degraded } : { passages };
}

/** Where a passage opens: the document's viewer at the cited version and character range. */
export function passageUrl(p: Pick<Passage, "documentId" | "version" | "charStart" | "charEnd">): string {
  return `/knowledge/documents/${encodeURIComponent(p.documentId)}?v=${p.version}&from=${p.charStart}&to=${p.charEnd}`;
}

/** A passage as a citation of the message that used it (lib/messages/citations.ts). */
export function passageCitation(p: Passage) {
  return {
    url: passageUrl(p),
    title: passagePlace(p),
    snippet: p.text.slice(0, 400),
    origin: "knowledge" as const,
    passage: { documentId: p.documentId, version: p.version, page: p.page, charStart: p.charStart, charEnd: p.charEnd },
  };
}
