-- Questions MCP servers ask a chat's owner during a tool call (elicitation), stored so the form survives
-- a reload and the answer is checked and recorded on the server.

-- CreateTable
CREATE TABLE "Elicitation" (
    "id" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "serverId" TEXT,
    "mode" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "requestedSchema" JSONB,
    "url" TEXT,
    "urlId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "content" JSONB,
    "answeredById" TEXT,
    "answeredAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Elicitation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Elicitation_chatId_status_idx" ON "Elicitation"("chatId", "status");

-- CreateIndex
CREATE INDEX "Elicitation_status_idx" ON "Elicitation"("status");

-- AddForeignKey
ALTER TABLE "Elicitation" ADD CONSTRAINT "Elicitation_chatId_fkey" FOREIGN KEY ("chatId") REFERENCES "Chat"("id") ON DELETE CASCADE ON UPDATE CASCADE;
