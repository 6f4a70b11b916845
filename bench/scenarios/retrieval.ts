// The retrieval scenario: how often knowledge search (lib/knowledge/search.ts) finds the passage that
// answers a question, by vector alone, by text alone and hybrid. A fictional company's handbook,
// runbooks and contracts (bench/retrieval/corpus) go through the real pipeline (addDocument, then the
// indexer: extract, chunk, embed over HTTP, store) on a throw-away PGlite database and on PostgreSQL,
// in this process; then each question of bench/retrieval/questions.json (paraphrased, each naming its
// document and a phrase of the answer) is embedded and searched. The embeddings come from
// bench/retrieval/embed-server.ts on loopback: word vectors, or hashed features (bench/retrieval/
// embedder.ts), not a neural model. Scores: recall@1, recall@5 and MRR over the first 10 passages.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort } from "../harness/lifecycle";
import type { Db } from "../options";
import { chooseEmbedder, type EmbedderKind } from "../retrieval/embedder";
import { startEmbedServer } from "../retrieval/embed-server";
import { firstHitRank, meanReciprocalRank, recallAtK, type Question } from "../retrieval/metrics";

const DIR = path.resolve(import.meta.dirname, "../retrieval");
const MODES = ["vector", "text", "hybrid"] as const;
type Mode = (typeof MODES)[number];
/** Passages asked for per question: MRR counts ranks up to this. */
const DEPTH = 10;
/** The aim: hybrid finds the answer in its first five for 90% of the questions, and no worse than either side alone. */
export const AIM_RECALL_AT_5 = 0.9;

export type RetrievalRow = { db: Db; mode: Mode; recall1: number; recall5: number; mrr: number; p50Ms: number; misses: string[] };
export type RetrievalResult = {
  embedder: EmbedderKind;
  dimensions: number;
  documents: number;
  questions: number;
  passages: Partial<Record<Db, number>>;
  indexSeconds: Partial<Record<Db, number>>;
  rows: RetrievalRow[];
  skipped: string[];
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function runRetrievalBench(
  dbs: Db[],
  pgUrl: string,
  want: EmbedderKind | undefined,
  log: (s: string) => void = () => {},
): Promise<RetrievalResult> {
  // Read when test/support/test-databases.ts loads, and at start-up: set before the first import.
  if (dbs.includes("postgresql")) process.env.TEST_DATABASE_URL = pgUrl;
  // The bench runs the indexer itself, to time it; the servers of later scenarios must not inherit that.
  const indexerBefore = process.env.PARLEY_KNOWLEDGE_INDEXER;
  process.env.PARLEY_KNOWLEDGE_INDEXER = "0";
  const { DRIVERS, startTestApp } = await import("../../test/support/test-app");
  const { knowledgeTeam } = await import("../../test/support/knowledge");
  const { db } = await import("../../lib/db/client");
  const { encryptSecret } = await import("../../lib/security/keyring");
  const { createKnowledgeBase } = await import("../../lib/knowledge/knowledge-bases");
  const { addDocument, listDocuments } = await import("../../lib/knowledge/documents");
  const { indexDue } = await import("../../lib/knowledge/indexer");
  const { embedQuery } = await import("../../lib/knowledge/embed");
  const { searchKnowledge } = await import("../../lib/knowledge/search");

  log("retrieval: loading the embedder…");
  const embedder = chooseEmbedder(want);
  const server = await startEmbedServer(embedder, await freePort());
  const files = fs
    .readdirSync(path.join(DIR, "corpus"))
    .filter((f) => f.endsWith(".md"))
    .sort();
  const questions = JSON.parse(fs.readFileSync(path.join(DIR, "questions.json"), "utf8")) as Question[];
  const result: RetrievalResult = {
    embedder: embedder.kind,
    dimensions: embedder.dimensions,
    documents: files.length,
    questions: questions.length,
    passages: {},
    indexSeconds: {},
    rows: [],
    skipped: [],
  };
  try {
    for (const kind of dbs) {
      const driver = DRIVERS.find((d) => d.kind === kind)!;
      let app: Awaited<ReturnType<typeof startTestApp>>;
      try {
        app = await startTestApp({ ...driver, skip: false });
      } catch (err) {
        result.skipped.push(`${kind}: ${err instanceof Error ? err.message : String(err)}`);
        continue;
      }
      try {
        const team = await knowledgeTeam("Retrieval bench");
        const prisma = await db();
        const provider = await prisma.provider.update({
          where: { id: team.providerId },
          data: { baseUrl: `${server.url}/v1`, apiKeyEnc: encryptSecret("sk-bench-embeddings") },
        });
        const modelId = `bench-${embedder.kind}`;
        const base = await createKnowledgeBase(team.admin, {
          name: "Larkspur Freight",
          embedding: { providerId: provider.id, model: modelId, dimensions: embedder.dimensions },
        });
        for (const name of files) {
          await addDocument(team.admin, base.id, { name, mediaType: "text/markdown", bytes: fs.readFileSync(path.join(DIR, "corpus", name)) });
        }
        log(`retrieval: indexing ${files.length} documents on ${kind}…`);
        const t = performance.now();
        await indexDue();
        result.indexSeconds[kind] = (performance.now() - t) / 1000;
        const notReady = (await listDocuments(team.admin, base.id)).filter((d) => d.status !== "ready");
        if (notReady.length) throw new Error(`not indexed: ${notReady.map((d) => `${d.name} (${d.status}: ${d.error})`).join(", ")}`);
        result.passages[kind] = await prisma.knowledgeChunk.count({ where: { baseId: base.id } });

        const target = { provider, modelId, dimensions: embedder.dimensions };
        const ranks = new Map<Mode, (number | null)[]>(MODES.map((m) => [m, []]));
        const times = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
        for (const q of questions) {
          const queryEmbedding = await embedQuery(target, q.question);
          for (const mode of MODES) {
            const started = performance.now();
            const found = await searchKnowledge(team.member, { baseIds: [base.id], query: q.question, queryEmbedding, limit: DEPTH, mode });
            times.get(mode)!.push(performance.now() - started);
            ranks.get(mode)!.push(firstHitRank(found, q));
          }
        }
        for (const mode of MODES) {
          const r = ranks.get(mode)!;
          result.rows.push({
            db: kind,
            mode,
            recall1: recallAtK(r, 1),
            recall5: recallAtK(r, 5),
            mrr: meanReciprocalRank(r),
            p50Ms: median(times.get(mode)!),
            misses: questions.filter((_, i) => r[i] === null || r[i]! > 5).map((q) => q.question),
          });
        }
      } finally {
        await app.stop();
      }
    }
  } finally {
    await server.stop();
    if (indexerBefore === undefined) delete process.env.PARLEY_KNOWLEDGE_INDEXER;
    else process.env.PARLEY_KNOWLEDGE_INDEXER = indexerBefore;
  }
  return result;
}

/** Whether the aim holds on one database: hybrid recall@5 at least the aim, and at least each side's alone. */
export function aimHolds(rows: RetrievalRow[]): boolean {
  const by = (m: Mode) => rows.find((r) => r.mode === m)?.recall5 ?? NaN;
  return by("hybrid") >= AIM_RECALL_AT_5 && by("hybrid") >= Math.max(by("vector"), by("text"));
}

/** Whether the aim holds, per database. */
export function retrievalAimsMet(r: RetrievalResult): Partial<Record<Db, boolean>> {
  const dbs = [...new Set(r.rows.map((row) => row.db))];
  return Object.fromEntries(dbs.map((db) => [db, aimHolds(r.rows.filter((row) => row.db === db))]));
}

const EMBEDDERS: Record<EmbedderKind, string> = {
  words: "word vectors (GloVe-style, 100-d, rarity-weighted mean), not a neural model",
  hashed: "hashed word stems and character trigrams (384-d), no learned knowledge",
};

export function retrievalText(r: RetrievalResult): string {
  const lines = [
    `Knowledge retrieval: ${r.documents} documents, ${r.questions} questions (bench/retrieval; embedder: ${EMBEDDERS[r.embedder]})`,
    `  aim: hybrid recall@5 >= ${AIM_RECALL_AT_5} and hybrid >= max(vector, text)`,
    "  db          mode      recall@1   recall@5   MRR@10   p50 ms   aim",
  ];
  const dbs = [...new Set(r.rows.map((row) => row.db))];
  for (const db of dbs) {
    const rows = r.rows.filter((row) => row.db === db);
    const pass = aimHolds(rows) ? "pass" : "MISS";
    for (const row of rows) {
      lines.push(
        `  ${db.padEnd(11)} ${row.mode.padEnd(8)} ${row.recall1.toFixed(2).padStart(9)} ${row.recall5.toFixed(2).padStart(10)} ${row.mrr.toFixed(3).padStart(8)} ${row.p50Ms.toFixed(1).padStart(8)}   ${row.mode === "hybrid" ? pass : ""}`.trimEnd(),
      );
    }
    lines.push(`  ${db}: ${r.passages[db]} passages, indexed in ${(r.indexSeconds[db] ?? NaN).toFixed(1)} s`);
  }
  const hybridMisses = r.rows.find((row) => row.mode === "hybrid")?.misses ?? [];
  if (hybridMisses.length) {
    const shown = hybridMisses.slice(0, 6).map((q) => `"${q}"`);
    lines.push(`  not in hybrid's first 5 on ${dbs[0]} (${hybridMisses.length}): ${shown.join("; ")}${hybridMisses.length > shown.length ? "; …" : ""}`);
  }
  for (const s of r.skipped) lines.push(`  skipped ${s}`);
  return lines.join("\n");
}
