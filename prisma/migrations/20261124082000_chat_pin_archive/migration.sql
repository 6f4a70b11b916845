-- Chats can be pinned (listed first) and archived (hidden from the list, shown in "Archived").

-- AlterTable
ALTER TABLE "Chat" ADD COLUMN     "archivedAt" TIMESTAMP(3),
ADD COLUMN     "pinnedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Chat_teamId_userId_archivedAt_pinnedAt_updatedAt_idx" ON "Chat"("teamId", "userId", "archivedAt", "pinnedAt", "updatedAt");
