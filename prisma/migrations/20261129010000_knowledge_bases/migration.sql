-- Knowledge bases (issue 31): bases of a team or a project, their documents, and the documents' passages
-- with an embedding (pgvector) and a full-text vector each. pgvector is required from here on: on
-- PostgreSQL a superuser installs it on the server once (docs/operations.md, "pgvector"); start-up checks
-- it before migrating (lib/knowledge/vector-store.ts ensureVectorExtension) and says what to install.
CREATE EXTENSION IF NOT EXISTS vector;

-- CreateEnum
CREATE TYPE "KnowledgeDocumentStatus" AS ENUM ('queued', 'indexing', 'ready', 'failed');

-- AlterEnum
ALTER TYPE "CitationOrigin" ADD VALUE 'knowledge';

-- AlterTable
ALTER TABLE "Citation" ADD COLUMN "knowledgeDocumentId" TEXT,
ADD COLUMN "documentVersion" INTEGER,
ADD COLUMN "page" INTEGER,
ADD COLUMN "charStart" INTEGER,
ADD COLUMN "charEnd" INTEGER;

-- CreateTable
CREATE TABLE "KnowledgeBase" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "projectId" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "embeddingProviderId" TEXT,
    "embeddingModel" TEXT NOT NULL,
    "embeddingDimensions" INTEGER NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KnowledgeBase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeDocument" (
    "id" TEXT NOT NULL,
    "baseId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mediaType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "pages" INTEGER,
    "status" "KnowledgeDocumentStatus" NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "addedById" TEXT,
    "addedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KnowledgeDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "id" TEXT NOT NULL,
    "baseId" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "page" INTEGER,
    "headingPath" JSONB NOT NULL,
    "charStart" INTEGER NOT NULL,
    "charEnd" INTEGER NOT NULL,
    "text" TEXT NOT NULL,

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "KnowledgeBase_teamId_projectId_idx" ON "KnowledgeBase"("teamId", "projectId");

-- CreateIndex
CREATE INDEX "KnowledgeDocument_baseId_addedAt_idx" ON "KnowledgeDocument"("baseId", "addedAt");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeDocument_baseId_sha256_key" ON "KnowledgeDocument"("baseId", "sha256");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_baseId_idx" ON "KnowledgeChunk"("baseId");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeChunk_documentId_version_ordinal_key" ON "KnowledgeChunk"("documentId", "version", "ordinal");

-- AddForeignKey
ALTER TABLE "Citation" ADD CONSTRAINT "Citation_knowledgeDocumentId_fkey" FOREIGN KEY ("knowledgeDocumentId") REFERENCES "KnowledgeDocument"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_embeddingProviderId_fkey" FOREIGN KEY ("embeddingProviderId") REFERENCES "Provider"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeDocument" ADD CONSTRAINT "KnowledgeDocument_baseId_fkey" FOREIGN KEY ("baseId") REFERENCES "KnowledgeBase"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeDocument" ADD CONSTRAINT "KnowledgeDocument_addedById_fkey" FOREIGN KEY ("addedById") REFERENCES "user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_baseId_fkey" FOREIGN KEY ("baseId") REFERENCES "KnowledgeBase"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KnowledgeDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Beyond schema.prisma (Prisma cannot read or write these; lib/db/schema-roundtrip.test.ts allows exactly them):
-- The embedding, unsized: each base chooses its embedding model and so its dimensions (768, 1024, 1536,
-- 3072 …), and one column holds them all; lib/knowledge writes it with the base's dimensions and compares
-- only within bases of one size. An unsized column cannot carry an HNSW index (pgvector needs the
-- dimensions), so search is exact (a sequential scan of the searched bases' passages), which is right
-- at team scale; a partial expression index per common size can come when a base grows past that.
ALTER TABLE "KnowledgeChunk" ADD COLUMN "embedding" vector;
-- Full text beside it, generated so it never goes stale; capped as Block's is (a tsvector holds at most 1 MB).
ALTER TABLE "KnowledgeChunk" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple'::regconfig, left("text", 250000))
) STORED;
CREATE INDEX "KnowledgeChunk_search_idx" ON "KnowledgeChunk" USING GIN ("searchVector");
