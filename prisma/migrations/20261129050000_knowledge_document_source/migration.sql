-- Where a knowledge document added from a URL came from (shown beside it, named in its audit event).
ALTER TABLE "KnowledgeDocument" ADD COLUMN "sourceUrl" TEXT;
