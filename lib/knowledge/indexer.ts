// Indexes knowledge documents in the background, beside chats and never in them: a document waits as
// `queued`; one indexer per process takes the oldest due one under a claim (a row lock skipped by other
// instances, then a claim id and a time limit on the row, so two instances never index the same
// document and one that dies mid-way leaves it to another once its claim runs out), extracts its text,
// cuts it into passages, embeds them batch by batch (the progress a person sees moves after each), and
// writes the version's passages and embeddings a batch per short transaction, each only if the document
// is still the version it took and still its to index (a replaced, re-indexed or deleted document's
// stale work is dropped); the last one marks it ready and deletes older versions' passages. An embedding server that is down, busy or silent puts the document back in line with a
// growing delay (the reason shown meanwhile), up to MAX_ATTEMPTS; any other failure (a scan without
// text, a damaged file, a refused key, vectors of the wrong size) fails it with the reason.
import crypto from "node:crypto";
import { db } from "../db/client";
import { chunkDocument } from "./chunk";
import { embedTexts, EmbeddingError, EMBED_BATCH, type EmbeddingTarget } from "./embed";
import { extractDocument } from "./extract";
import { writeEmbeddings } from "./vector-store";

export const INDEX_INTERVAL_MS = 2_000;
/** How long a claim holds without progress; each batch renews it. */
export const CLAIM_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 6;
/** Passages written per transaction. */
const WRITE_BATCH = 100;
const MAX_BACKOFF_MS = 30 * 60_000;

export type IndexerOptions = { retryBaseMs?: number; claimMs?: number; fetch?: typeof fetch; signal?: AbortSignal };

/** A document this instance holds for indexing. */
type Claim = { id: string; version: number; claimId: string };

/** Takes the oldest document that is due (queued and not waiting for a retry, or claimed by an instance whose claim ran out). */
export async function claimNextDocument(now = new Date(), claimMs = CLAIM_MS): Promise<Claim | undefined> {
  const prisma = await db();
  const claimId = crypto.randomUUID();
  const until = new Date(now.getTime() + claimMs);
  const rows = await prisma.$queryRaw<{ id: string; version: number }[]>`
    UPDATE "KnowledgeDocument" SET "status" = 'indexing', "progress" = 0, "claimId" = ${claimId}, "claimedUntil" = ${until}
     WHERE "id" = (SELECT "id" FROM "KnowledgeDocument"
                    WHERE ("status" = 'queued' AND ("retryAt" IS NULL OR "retryAt" <= ${now}))
                       OR ("status" = 'indexing' AND "claimedUntil" < ${now})
                    ORDER BY "addedAt", "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING "id", "version"`;
  return rows[0] && { ...rows[0], claimId };
}

/** Whether the claim still holds the document as it was taken (not replaced, re-indexed, deleted or taken over). */
const stillOurs = (c: Claim) => ({ id: c.id, version: c.version, status: "indexing" as const, claimId: c.claimId });

class Dropped extends Error {}

/** Indexes one claimed document to the end: ready, back in line, failed, or dropped when it changed meanwhile. */
export async function indexDocument(claim: Claim, opts: IndexerOptions = {}): Promise<"ready" | "retry" | "failed" | "dropped"> {
  const prisma = await db();
  const doc = await prisma.knowledgeDocument.findFirst({
    where: stillOurs(claim),
    select: {
      name: true,
      baseId: true,
      mediaType: true,
      content: true,
      attempts: true,
      base: { select: { embeddingModel: true, embeddingDimensions: true, embeddingProvider: true } },
    },
  });
  if (!doc) return "dropped";
  const fail = (message: string) => finish(claim, { status: "failed", error: message, attempts: 0, retryAt: null });
  const extracted = await extractDocument(doc.content, { mediaType: doc.mediaType, name: doc.name });
  if (!extracted.ok) return fail(extracted.message);
  const provider = doc.base.embeddingProvider;
  if (!provider)
    return fail("The knowledge base's embedding provider was removed. Make a new knowledge base with an embedding model of a provider the team has.");
  const target: EmbeddingTarget = { provider, modelId: doc.base.embeddingModel, dimensions: doc.base.embeddingDimensions };
  const chunks = chunkDocument(extracted);
  const embeddings: number[][] = [];
  try {
    for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
      const batch = chunks.slice(i, i + EMBED_BATCH).map((c) => c.text);
      embeddings.push(...(await embedTexts(target, batch, { signal: opts.signal, fetchImpl: opts.fetch })).embeddings);
      await progress(claim, embeddings.length / chunks.length, opts.claimMs ?? CLAIM_MS);
    }
  } catch (err) {
    if (err instanceof Dropped) return "dropped";
    if (!(err instanceof EmbeddingError)) throw err;
    if (!err.retryable || doc.attempts + 1 >= MAX_ATTEMPTS) return fail(err.message);
    const delay = Math.min(MAX_BACKOFF_MS, (opts.retryBaseMs ?? 30_000) * 2 ** doc.attempts);
    return finish(claim, { status: "queued", error: err.message, attempts: doc.attempts + 1, retryAt: new Date(Date.now() + delay) }, "retry");
  }
  // Passages are written a batch per transaction, so a large document never holds the database (on
  // PGlite, its one connection) for long: chats' writes go between the batches. Each batch checks the
  // claim; the document turns ready (and older versions' passages go) in a last short transaction.
  const claimMs = opts.claimMs ?? CLAIM_MS;
  const ids = chunks.map(() => crypto.randomUUID());
  const column = { table: "KnowledgeChunk", key: "id", column: "embedding", dimensions: target.dimensions };
  for (let i = 0; i < chunks.length; i += WRITE_BATCH) {
    const written = await prisma.$transaction(async (tx) => {
      const held = await tx.knowledgeDocument.updateMany({ where: stillOurs(claim), data: { claimedUntil: new Date(Date.now() + claimMs) } });
      if (held.count === 0) return false;
      // A try that stopped mid-way (a crash, a lost claim) left passages of this version: they go first.
      if (i === 0) await tx.knowledgeChunk.deleteMany({ where: { documentId: claim.id, version: claim.version } });
      const batch = chunks.slice(i, i + WRITE_BATCH);
      await tx.knowledgeChunk.createMany({
        data: batch.map((c, j) => ({
          id: ids[i + j],
          baseId: doc.baseId,
          documentId: claim.id,
          version: claim.version,
          ordinal: c.ordinal,
          page: c.page,
          headingPath: c.headingPath,
          charStart: c.start,
          charEnd: c.end,
          text: c.text,
        })),
      });
      await writeEmbeddings(
        tx,
        column,
        batch.map((_, j) => ({ key: ids[i + j], embedding: embeddings[i + j] })),
      );
      return true;
    });
    if (!written) return "dropped";
  }
  const ready = await prisma.$transaction(async (tx) => {
    const held = await tx.knowledgeDocument.updateMany({
      where: stillOurs(claim),
      data: {
        status: "ready",
        progress: 1,
        pages: extracted.pages.length,
        text: extracted.text,
        pageRanges: extracted.pages.map((p) => [p.start, p.end]),
        error: null,
        attempts: 0,
        retryAt: null,
        claimId: null,
        claimedUntil: null,
      },
    });
    if (held.count === 0) return false;
    await tx.knowledgeChunk.deleteMany({ where: { documentId: claim.id, version: { not: claim.version } } });
    return true;
  });
  return ready ? "ready" : "dropped";
}

/** Records how far indexing is and renews the claim; a document no longer ours stops the work. */
async function progress(claim: Claim, done: number, claimMs: number): Promise<void> {
  const prisma = await db();
  const held = await prisma.knowledgeDocument.updateMany({
    where: stillOurs(claim),
    data: { progress: Math.min(0.99, done), claimedUntil: new Date(Date.now() + claimMs) },
  });
  if (held.count === 0) throw new Dropped();
}

type Outcome = { status: "queued" | "failed"; error: string; attempts: number; retryAt: Date | null };

async function finish<R extends "retry" | "failed">(claim: Claim, outcome: Outcome, result?: R): Promise<R | "dropped"> {
  const prisma = await db();
  const held = await prisma.knowledgeDocument.updateMany({ where: stillOurs(claim), data: { ...outcome, progress: 0, claimId: null, claimedUntil: null } });
  return held.count === 0 ? "dropped" : (result ?? ("failed" as R));
}

/** Indexes due documents one after another until none is due (or `signal` stops it); returns how many it took. */
export async function indexDue(opts: IndexerOptions = {}): Promise<number> {
  let taken = 0;
  while (!opts.signal?.aborted) {
    const claim = await claimNextDocument(new Date(), opts.claimMs);
    if (!claim) break;
    taken++;
    await indexDocument(claim, opts).catch((err: unknown) => {
      if (opts.signal?.aborted) return; // stopping: the claim runs out and another start takes it again
      console.error(`[knowledge] indexing document ${claim.id} failed`, err);
      return finish(claim, { status: "failed", error: "Indexing failed because of an error on the server. Try Re-index.", attempts: 0, retryAt: null });
    });
  }
  return taken;
}

/**
 * The indexer of this process: looks for due documents every INDEX_INTERVAL_MS (and at once when woken
 * by an upload in this process), one document at a time. Returns its stop.
 */
export function startIndexer(opts: Omit<IndexerOptions, "signal"> & { intervalMs?: number } = {}): () => Promise<void> {
  const stop = new AbortController();
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  const tick = () => {
    if (busy || stop.signal.aborted) return;
    busy = true;
    running = indexDue({ ...opts, signal: stop.signal })
      .catch((err: unknown) => console.error("[knowledge] the indexer failed to look for documents", err))
      .finally(() => (busy = false));
  };
  const timer = setInterval(tick, opts.intervalMs ?? INDEX_INTERVAL_MS);
  timer.unref();
  wake = tick;
  return async () => {
    stop.abort();
    clearInterval(timer);
    wake = undefined;
    await running;
  };
}

let wake: (() => void) | undefined;

/** Tells this process's indexer that a document was queued, so that it does not wait for its next look. */
export function wakeIndexer(): void {
  wake?.();
}
