// Knowledge documents' records: add a file to a base, replace it (a new version: the old version's
// passages and embeddings are deleted), delete it, ask for it to be indexed again, and list a base's
// documents with what a person sees of each (status, progress, reason, size, pages, who added it and
// when). The same bytes twice in one base are refused by their sha256. A team's documents together
// stay under a storage cap. Who may do what: lib/knowledge/access.ts. Indexing (extracting, chunking,
// embedding) is lib/knowledge/indexer.ts: it picks up documents in status `queued` (woken at once here).
import crypto from "node:crypto";
import { audited } from "../audit";
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { Conflict, Invalid, AppError } from "../errors";
import { manageableBase, manageableDocument, visibleBase, type Caller } from "./access";
import { MAX_DOCUMENT_BYTES } from "./extract/types";
import { wakeIndexer } from "./indexer";

/** All of a team's knowledge documents together (for now one figure for every team). */
export const TEAM_KNOWLEDGE_BYTES = 1024 * 1024 * 1024;

/** A document's file; `sourceUrl` when it was fetched from the web (lib/knowledge/fetch-document.ts). */
export type DocumentFile = { name: string; mediaType: string; bytes: Uint8Array; sourceUrl?: string };

export type DocumentStatus = "queued" | "indexing" | "ready" | "failed";

export type DocumentView = {
  id: string;
  name: string;
  mediaType: string;
  size: number;
  pages: number | null;
  version: number;
  status: DocumentStatus;
  /** 0..1 while indexing. */
  progress: number;
  /** Why indexing failed, for a person. */
  error: string | null;
  addedBy: string | null;
  addedAt: string;
  /** The URL it was fetched from; null for an upload. */
  sourceUrl: string | null;
};

const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === "P2002";

function checkFile(file: DocumentFile): void {
  const name = file.name.trim();
  if (!name || name.length > 255) throw Invalid("A document needs a name of at most 255 characters.");
  if (file.bytes.byteLength === 0) throw Invalid(`${name} is empty.`);
  if (file.bytes.byteLength > MAX_DOCUMENT_BYTES) throw Invalid(`${name} is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB, the most one document may be.`);
}

/** Refuses a file that would take the team's documents past TEAM_KNOWLEDGE_BYTES (`freed`: the size of a file it replaces). */
export async function checkStorageCap(teamId: string, adding: number, freed = 0): Promise<void> {
  const prisma = await db();
  const used = await prisma.knowledgeDocument.aggregate({ where: { base: { teamId } }, _sum: { size: true } });
  const total = (used._sum.size ?? 0) - freed + adding;
  if (total > TEAM_KNOWLEDGE_BYTES) {
    const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;
    throw new AppError(
      "PayloadTooLarge",
      413,
      `The team's knowledge documents would take ${mb(total)}, more than the ${mb(TEAM_KNOWLEDGE_BYTES)} allowed. Delete documents first.`,
    );
  }
}

async function refuseDuplicate(baseId: string, hash: string, name: string): Promise<never | void> {
  const prisma = await db();
  const same = await prisma.knowledgeDocument.findFirst({ where: { baseId, sha256: hash }, select: { name: true } });
  if (same) throw Conflict(`${name} is already in this knowledge base, as ${same.name}.`);
}

/** Adds a file to a base as a queued document. */
export async function addDocument(ctx: Caller, baseId: string, file: DocumentFile): Promise<{ id: string }> {
  const base = await manageableBase(ctx, baseId);
  checkFile(file);
  const hash = sha256(file.bytes);
  await refuseDuplicate(base.id, hash, file.name);
  await checkStorageCap(ctx.team.id, file.bytes.byteLength);
  try {
    const added = await audited(
      ctx,
      (tx) =>
        tx.knowledgeDocument.create({
          data: {
            baseId: base.id,
            name: file.name.trim(),
            mediaType: file.mediaType,
            size: file.bytes.byteLength,
            sha256: hash,
            content: new Uint8Array(file.bytes),
            sourceUrl: file.sourceUrl ?? null,
            addedById: ctx.user.id,
          },
          select: { id: true },
        }),
      (d) => ({
        action: "knowledge.document.add",
        targetType: "knowledgeDocument",
        targetId: d.id,
        data: { baseId: base.id, name: file.name, ...(file.sourceUrl ? { url: file.sourceUrl } : {}) },
      }),
    );
    wakeIndexer();
    return added;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(`${file.name} is already in this knowledge base.`);
    throw err;
  }
}

/** Replaces a document's file: the next version, queued for indexing; the old version's passages are deleted. */
export async function replaceDocument(ctx: Caller, documentId: string, file: DocumentFile): Promise<{ version: number }> {
  const doc = await manageableDocument(ctx, documentId);
  checkFile(file);
  const hash = sha256(file.bytes);
  if (hash === doc.sha256) throw Conflict(`${file.name} is the same file as the current version of ${doc.name}.`);
  await refuseDuplicate(doc.baseId, hash, file.name);
  const prisma = await db();
  const old = await prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: doc.id }, select: { size: true } });
  await checkStorageCap(ctx.team.id, file.bytes.byteLength, old.size);
  try {
    const replaced = await audited(
      ctx,
      async (tx) => {
        await tx.knowledgeChunk.deleteMany({ where: { documentId: doc.id } });
        return tx.knowledgeDocument.update({
          where: { id: doc.id },
          data: {
            name: file.name.trim(),
            mediaType: file.mediaType,
            size: file.bytes.byteLength,
            sha256: hash,
            content: new Uint8Array(file.bytes),
            version: { increment: 1 },
            sourceUrl: file.sourceUrl ?? null,
            pages: null,
            text: null,
            pageRanges: Prisma.DbNull,
            status: "queued",
            progress: 0,
            error: null,
            attempts: 0,
            retryAt: null,
            addedById: ctx.user.id,
            addedAt: new Date(),
          },
          select: { version: true },
        });
      },
      (d) => ({ action: "knowledge.document.replace", targetType: "knowledgeDocument", targetId: doc.id, data: { version: d.version, name: file.name } }),
    );
    wakeIndexer();
    return replaced;
  } catch (err) {
    if (isUniqueViolation(err)) throw Conflict(`${file.name} is already in this knowledge base.`);
    throw err;
  }
}

/** Deletes a document with its file, passages and embeddings (citations keep their snippet). */
export async function deleteDocument(ctx: Caller, documentId: string): Promise<void> {
  const doc = await manageableDocument(ctx, documentId);
  await audited(ctx, (tx) => tx.knowledgeDocument.delete({ where: { id: doc.id } }), {
    action: "knowledge.document.delete",
    targetType: "knowledgeDocument",
    targetId: doc.id,
    data: { baseId: doc.baseId, name: doc.name },
  });
}

/** Queues a document to be indexed again from its file: its passages are deleted until then. */
export async function reindexDocument(ctx: Caller, documentId: string): Promise<void> {
  const doc = await manageableDocument(ctx, documentId);
  await audited(
    ctx,
    async (tx) => {
      await tx.knowledgeChunk.deleteMany({ where: { documentId: doc.id } });
      await tx.knowledgeDocument.update({ where: { id: doc.id }, data: { status: "queued", progress: 0, error: null, attempts: 0, retryAt: null } });
    },
    { action: "knowledge.document.reindex", targetType: "knowledgeDocument", targetId: doc.id },
  );
  wakeIndexer();
}

/** The documents of a base the caller sees, newest first. */
export async function listDocuments(ctx: Caller, baseId: string): Promise<DocumentView[]> {
  const base = await visibleBase(ctx, baseId);
  const prisma = await db();
  const rows = await prisma.knowledgeDocument.findMany({
    where: { baseId: base.id },
    // Not the file nor its extracted text (megabytes each): the list is read every 1.5 s while indexing.
    omit: { content: true, text: true, pageRanges: true },
    include: { addedBy: { select: { name: true } } },
    orderBy: [{ addedAt: "desc" }, { id: "asc" }],
    take: 1_000,
  });
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    mediaType: d.mediaType,
    size: d.size,
    pages: d.pages,
    version: d.version,
    status: d.status,
    progress: d.progress,
    error: d.error,
    addedBy: d.addedBy?.name ?? null,
    addedAt: d.addedAt.toISOString(),
    sourceUrl: d.sourceUrl,
  }));
}
