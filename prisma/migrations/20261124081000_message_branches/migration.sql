-- Chats branch: a regenerated answer or an edited question is a new version beside the old one, and
-- the chat shows one branch of versions. Each message points at the message it follows; existing
-- chats are one branch, so each message follows the one before it in its chat.

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "onBranch" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "parentId" TEXT;

UPDATE "Message" m SET "parentId" = p."previousId"
FROM (SELECT "id", LAG("id") OVER (PARTITION BY "chatId" ORDER BY "seq") AS "previousId" FROM "Message") p
WHERE m."id" = p."id" AND p."previousId" IS NOT NULL;

-- CreateIndex
CREATE INDEX "Message_parentId_idx" ON "Message"("parentId");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Message"("id") ON DELETE CASCADE ON UPDATE CASCADE;
