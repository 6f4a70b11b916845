-- Indexing knowledge documents as a job (lib/knowledge/indexer.ts): the extracted text of the current
-- version, tries, the next try's time, and the claim of the instance indexing the document.
ALTER TABLE "KnowledgeDocument" ADD COLUMN "text" TEXT,
ADD COLUMN "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "retryAt" TIMESTAMP(3),
ADD COLUMN "claimId" TEXT,
ADD COLUMN "claimedUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "KnowledgeDocument_status_addedAt_idx" ON "KnowledgeDocument"("status", "addedAt");
