-- Usage, cost and budgets: prices per model, the cost of each answer at the prices of its moment, the
-- model row of each usage record, monthly budgets and the reservations of turns that run now.

-- CreateEnum
CREATE TYPE "BudgetScope" AS ENUM ('team', 'member_default', 'member', 'model');

-- CreateEnum
CREATE TYPE "BudgetMetric" AS ENUM ('cost', 'tokens');

-- AlterTable
ALTER TABLE "Model" ADD COLUMN     "cachedInputPrice" DOUBLE PRECISION,
ADD COLUMN     "inputPrice" DOUBLE PRECISION,
ADD COLUMN     "outputPrice" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "Message" ADD COLUMN     "cost" DOUBLE PRECISION;

-- AlterTable
ALTER TABLE "UsageRecord" ADD COLUMN     "cost" DOUBLE PRECISION,
ADD COLUMN     "modelRowId" TEXT;

-- CreateTable
CREATE TABLE "Budget" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "scope" "BudgetScope" NOT NULL,
    "userId" TEXT,
    "modelRowId" TEXT,
    "metric" "BudgetMetric" NOT NULL,
    "limit" DOUBLE PRECISION NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BudgetReservation" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "modelRowId" TEXT,
    "tokens" INTEGER NOT NULL,
    "cost" DOUBLE PRECISION NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BudgetReservation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Budget_teamId_idx" ON "Budget"("teamId");

-- CreateIndex
CREATE INDEX "BudgetReservation_teamId_expiresAt_idx" ON "BudgetReservation"("teamId", "expiresAt");

-- CreateIndex
CREATE INDEX "UsageRecord_teamId_userId_createdAt_idx" ON "UsageRecord"("teamId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "UsageRecord_modelRowId_createdAt_idx" ON "UsageRecord"("modelRowId", "createdAt");

-- AddForeignKey
ALTER TABLE "UsageRecord" ADD CONSTRAINT "UsageRecord_modelRowId_fkey" FOREIGN KEY ("modelRowId") REFERENCES "Model"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Budget" ADD CONSTRAINT "Budget_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Budget" ADD CONSTRAINT "Budget_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Budget" ADD CONSTRAINT "Budget_modelRowId_fkey" FOREIGN KEY ("modelRowId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BudgetReservation" ADD CONSTRAINT "BudgetReservation_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
