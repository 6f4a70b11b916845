-- Approvals that involve the team: "an admin approves", rules on arguments, time limits for a
-- decision, edited inputs, "Allow for this chat", read-only hints trusted only when an admin opts a
-- server in, and provider-executed tools allowed per model.

-- AlterEnum
ALTER TYPE "ToolPolicy" ADD VALUE 'admin';

-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "trustReadOnly" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "decisionTimeoutMin" INTEGER;

-- AlterTable
ALTER TABLE "McpTool" ADD COLUMN     "rules" JSONB,
ADD COLUMN     "decisionTimeoutMin" INTEGER;

-- AlterTable
ALTER TABLE "Chat" ADD COLUMN     "allowedTools" JSONB;

-- AlterTable
ALTER TABLE "Model" ADD COLUMN     "providerToolsAllowed" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Block" ADD COLUMN     "approvalBy" TEXT,
ADD COLUMN     "approvalRule" TEXT,
ADD COLUMN     "approvalDeadline" TIMESTAMP(3),
ADD COLUMN     "originalInput" JSONB;

-- CreateIndex
CREATE INDEX "Block_status_approvalBy_idx" ON "Block"("status", "approvalBy");
