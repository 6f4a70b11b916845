-- Attachment bytes move out of one bytea per file into chunks of at most 256 KB, so uploads and
-- downloads go a chunk at a time; an attachment is usable once its upload is complete.

-- CreateTable
CREATE TABLE "AttachmentChunk" (
    "attachmentId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "AttachmentChunk_pkey" PRIMARY KEY ("attachmentId","seq")
);

-- AddForeignKey
ALTER TABLE "AttachmentChunk" ADD CONSTRAINT "AttachmentChunk_attachmentId_fkey" FOREIGN KEY ("attachmentId") REFERENCES "Attachment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "Attachment" ADD COLUMN     "complete" BOOLEAN NOT NULL DEFAULT false;

-- Every attachment stored so far was complete: its bytes become chunks of 256 KB.
UPDATE "Attachment" SET "complete" = true;
INSERT INTO "AttachmentChunk" ("attachmentId", "seq", "data")
SELECT a."id", g.n, substring(a."data" FROM g.n * 262144 + 1 FOR 262144)
FROM "Attachment" AS a, generate_series(0, greatest(length(a."data") - 1, 0) / 262144) AS g(n);

-- AlterTable
ALTER TABLE "Attachment" DROP COLUMN "data";
