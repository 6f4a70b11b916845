// Retrieval from knowledge bases: the passages that best answer a question, from the bases a caller
// names and may see, by hybrid ranking: the nearest passages by cosine distance of their embeddings
// (lib/knowledge/vector-store.ts) and the best by full-text rank (the passages' generated tsvector in
// the `english` configuration: stems, stop words dropped; any of the question's other words), fused by
// reciprocal rank (score = Σ 1 / (RRF_K + rank) over the two lists). Without a query embedding (or for bases embedded at another size) it ranks by text alone.
// Base ids the caller cannot see (another team's, a personal project of someone else, forged) are
// dropped silently: the answer is the same as for a base with no match, so nothing leaks. `mode` ranks by
// one side alone ("vector", "text"): the retrieval bench (bench/scenarios/retrieval.ts) compares them.
import { db } from "../db/client";
import { visibleBases, type Caller } from "./access";
import { nearestByCosine, type VectorColumn } from "./vector-store";

/** Reciprocal rank fusion's constant (Cormack et al.: 60), damping the weight of the very first ranks. */
export const RRF_K = 60;
/** The most passages one search returns. */
export const MAX_PASSAGES = 50;
/** The most words of a question the full-text side looks for. */
const MAX_QUERY_WORDS = 32;

/** Both rankings fused (the default), or one of them alone. */
export type SearchMode = "hybrid" | "vector" | "text";

export type KnowledgeQuery = { baseIds: readonly string[]; query: string; queryEmbedding?: readonly number[]; limit: number; mode?: SearchMode };

/** A passage found, with what a citation links to: document, version, page, heading path and character range. */
export type Passage = {
  chunkId: string;
  baseId: string;
  documentId: string;
  documentName: string;
  version: number;
  page: number | null;
  headingPath: string[];
  charStart: number;
  charEnd: number;
  text: string;
  /** Reciprocal-rank-fusion score: higher is better. */
  score: number;
};

/** The question's words (letters and digits only, so none is a tsquery operator) as a tsquery of any of them. */
export function anyWordQuery(query: string): string | null {
  const words = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_QUERY_WORDS))];
  return words.length ? words.join(" | ") : null;
}

async function textRanked(baseIds: string[], query: string, depth: number): Promise<string[]> {
  const tsquery = anyWordQuery(query);
  if (!tsquery) return [];
  const prisma = await db();
  const rows = await prisma.$queryRawUnsafe<{ id: string }[]>(
    `SELECT c."id" FROM "KnowledgeChunk" c
       JOIN "KnowledgeDocument" d ON d."id" = c."documentId" AND d."version" = c."version"
      CROSS JOIN to_tsquery('english', $2) q
      WHERE c."baseId" = ANY($1::text[]) AND c."searchVector" @@ q
      ORDER BY ts_rank(c."searchVector", q, 1) DESC, c."id"
      LIMIT ${depth}`,
    baseIds,
    tsquery,
  );
  return rows.map((r) => r.id);
}

async function vectorRanked(bases: { id: string; embeddingDimensions: number }[], embedding: readonly number[], depth: number): Promise<string[]> {
  const sameSize = bases.filter((b) => b.embeddingDimensions === embedding.length).map((b) => b.id);
  if (sameSize.length === 0 || embedding.every((x) => x === 0)) return [];
  const col: VectorColumn = { table: "KnowledgeChunk", key: "id", column: "embedding", dimensions: embedding.length };
  const prisma = await db();
  const near = await nearestByCosine(prisma, col, embedding, { limit: depth, among: { column: "baseId", values: sameSize } });
  return near.map((n) => n.key);
}

/** Σ 1 / (RRF_K + rank) over the lists, rank counted from 1; ties by first appearance. */
export function reciprocalRankFusion(lists: readonly (readonly string[])[]): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  return new Map([...scores].sort((a, b) => b[1] - a[1]));
}

/** The `limit` best passages for `query` in the named bases the caller may see, best first. */
export async function searchKnowledge(ctx: Caller, q: KnowledgeQuery): Promise<Passage[]> {
  const limit = Math.max(1, Math.min(MAX_PASSAGES, Math.floor(q.limit)));
  const ids = [...new Set(q.baseIds)].filter((id) => typeof id === "string" && id.length > 0 && id.length <= 64);
  if (ids.length === 0) return [];
  const prisma = await db();
  const bases = await prisma.knowledgeBase.findMany({ where: { id: { in: ids }, ...visibleBases(ctx) }, select: { id: true, embeddingDimensions: true } });
  if (bases.length === 0) return [];
  const depth = Math.max(20, limit * 4);
  const mode = q.mode ?? "hybrid";
  const [byText, byVector] = await Promise.all([
    mode === "vector"
      ? Promise.resolve([])
      : textRanked(
          bases.map((b) => b.id),
          q.query,
          depth,
        ),
    mode !== "text" && q.queryEmbedding?.length ? vectorRanked(bases, q.queryEmbedding, depth) : Promise.resolve([]),
  ]);
  const fused = [...reciprocalRankFusion([byVector, byText])].slice(0, limit);
  if (fused.length === 0) return [];
  const rows = await prisma.knowledgeChunk.findMany({
    where: { id: { in: fused.map(([id]) => id) } },
    include: { document: { select: { name: true, version: true } } },
  });
  const byId = new Map(rows.filter((c) => c.version === c.document.version).map((c) => [c.id, c]));
  return fused.flatMap(([id, score]) => {
    const c = byId.get(id);
    if (!c) return [];
    return [
      {
        chunkId: c.id,
        baseId: c.baseId,
        documentId: c.documentId,
        documentName: c.document.name,
        version: c.version,
        page: c.page,
        headingPath: Array.isArray(c.headingPath) ? c.headingPath.map(String) : [],
        charStart: c.charStart,
        charEnd: c.charEnd,
        text: c.text,
        score,
      },
    ];
  });
}
