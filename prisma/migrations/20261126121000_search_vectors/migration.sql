-- Full-text search (lib/search) reads stored tsvector columns instead of expression indexes: a phrase
-- or a very common word no longer re-parses every candidate row's text (issue 18, item 3). Generated
-- columns, so they can never go stale: PostgreSQL recomputes them on every insert and update (a block
-- whose text grows while streaming, an edited title). Prisma's schema cannot describe them, so
-- schema.prisma does not list them (lib/db/schema-roundtrip.test.ts allows exactly these two columns
-- and their two indexes) and Prisma never reads or writes them.
-- The document is capped at 250,000 characters: a tsvector holds at most 1 MB of lexemes, and a
-- larger tool output (an image in base64, say) would otherwise make the block's write fail.
DROP INDEX "Block_search_idx";
DROP INDEX "Chat_search_idx";

ALTER TABLE "Block" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple'::regconfig, left(coalesce("text", '') || ' ' || coalesce("input"::text, '') || ' ' || coalesce("output"::text, ''), 250000))
) STORED;

ALTER TABLE "Chat" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple'::regconfig, coalesce("title", ''))
) STORED;

CREATE INDEX "Block_search_idx" ON "Block" USING GIN ("searchVector");

CREATE INDEX "Chat_search_idx" ON "Chat" USING GIN ("searchVector");
