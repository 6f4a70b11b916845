-- Team events sent once per something (a budget's month, an MCP server's outage): a unique key that a
-- second event of the same thing cannot take.

-- AlterTable
ALTER TABLE "TeamEvent" ADD COLUMN     "onceKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "TeamEvent_onceKey_key" ON "TeamEvent"("onceKey");
