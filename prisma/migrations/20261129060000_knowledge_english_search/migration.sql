-- Knowledge passages' full text in the `english` configuration (stems, no stop words) instead of `simple`:
-- "refunds" finds "refund", and "what is the" no longer counts as much as the words that matter
-- (docs/performance.md, Knowledge retrieval). lib/knowledge/search.ts asks in the same configuration.
DROP INDEX "KnowledgeChunk_search_idx";
ALTER TABLE "KnowledgeChunk" DROP COLUMN "searchVector";
ALTER TABLE "KnowledgeChunk" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  to_tsvector('english'::regconfig, left("text", 250000))
) STORED;
CREATE INDEX "KnowledgeChunk_search_idx" ON "KnowledgeChunk" USING GIN ("searchVector");
