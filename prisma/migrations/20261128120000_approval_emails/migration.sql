-- Approvals by email: the admins asked for each MCP server's calls (none named: every admin), what each
-- person wants to hear by email, the links in approval emails (only their tokens' sha256), the requests
-- waiting to be emailed (batched per person), and a team's choice of one-click links.

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "oneClickApprovalLinks" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "McpServerApprover" (
    "serverId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "McpServerApprover_pkey" PRIMARY KEY ("serverId","userId")
);

-- CreateTable
CREATE TABLE "NotificationPreference" (
    "userId" TEXT NOT NULL,
    "approvalRequests" BOOLEAN NOT NULL DEFAULT true,
    "ownCallsDecided" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationPreference_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "ApprovalLink" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "approvalId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApprovalLink_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApprovalEmail" (
    "id" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "approvalId" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimedUntil" TIMESTAMP(3),
    "sentAt" TIMESTAMP(3),
    "droppedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    CONSTRAINT "ApprovalEmail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "McpServerApprover_userId_idx" ON "McpServerApprover"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalLink_tokenHash_key" ON "ApprovalLink"("tokenHash");

-- CreateIndex
CREATE INDEX "ApprovalLink_approvalId_idx" ON "ApprovalLink"("approvalId");

-- CreateIndex
CREATE INDEX "ApprovalLink_userId_idx" ON "ApprovalLink"("userId");

-- CreateIndex
CREATE INDEX "ApprovalLink_teamId_idx" ON "ApprovalLink"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "ApprovalEmail_eventId_userId_key" ON "ApprovalEmail"("eventId", "userId");

-- CreateIndex
CREATE INDEX "ApprovalEmail_userId_sentAt_idx" ON "ApprovalEmail"("userId", "sentAt");

-- CreateIndex
CREATE INDEX "ApprovalEmail_approvalId_idx" ON "ApprovalEmail"("approvalId");

-- CreateIndex
CREATE INDEX "ApprovalEmail_teamId_idx" ON "ApprovalEmail"("teamId");

-- AddForeignKey
ALTER TABLE "McpServerApprover" ADD CONSTRAINT "McpServerApprover_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpServerApprover" ADD CONSTRAINT "McpServerApprover_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "NotificationPreference" ADD CONSTRAINT "NotificationPreference_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalLink" ADD CONSTRAINT "ApprovalLink_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalLink" ADD CONSTRAINT "ApprovalLink_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalEmail" ADD CONSTRAINT "ApprovalEmail_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApprovalEmail" ADD CONSTRAINT "ApprovalEmail_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
