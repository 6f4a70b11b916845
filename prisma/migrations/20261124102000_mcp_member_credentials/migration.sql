-- Per-member connections to MCP servers: an admin chooses how members authenticate to each server
-- (shared, OAuth per member, a key per member); each member's credential is its own sealed row.

-- CreateEnum
CREATE TYPE "McpAuthMode" AS ENUM ('shared', 'oauth', 'member_key');

-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "authMode" "McpAuthMode" NOT NULL DEFAULT 'shared',
ADD COLUMN     "memberHeader" TEXT,
ADD COLUMN     "oauthClientEnc" TEXT,
ADD COLUMN     "oauthScopes" TEXT;

-- CreateTable
CREATE TABLE "McpCredential" (
    "id" TEXT NOT NULL,
    "serverId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "secretEnc" TEXT,
    "scope" TEXT,
    "expiresAt" TIMESTAMP(3),
    "needsReconnect" BOOLEAN NOT NULL DEFAULT false,
    "connectedAt" TIMESTAMP(3),
    "pendingStateHash" TEXT,
    "pendingEnc" TEXT,
    "pendingExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "McpCredential_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "McpCredential_pendingStateHash_key" ON "McpCredential"("pendingStateHash");

-- CreateIndex
CREATE INDEX "McpCredential_userId_idx" ON "McpCredential"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "McpCredential_serverId_userId_key" ON "McpCredential"("serverId", "userId");

-- AddForeignKey
ALTER TABLE "McpCredential" ADD CONSTRAINT "McpCredential_serverId_fkey" FOREIGN KEY ("serverId") REFERENCES "McpServer"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "McpCredential" ADD CONSTRAINT "McpCredential_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
