-- Knowledge in chats (lib/knowledge/chat-knowledge.ts): the knowledge bases a chat searches and whether
-- it retrieves before each answer; and where each page of a document lies in its extracted text, for
-- the passage viewer.
ALTER TABLE "Chat" ADD COLUMN "knowledge" JSONB;
ALTER TABLE "KnowledgeDocument" ADD COLUMN "pageRanges" JSONB;
