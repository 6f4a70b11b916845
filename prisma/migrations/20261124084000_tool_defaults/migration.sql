-- Tools in new chats: an admin may turn an MCP server's tools on by default for the team, and a
-- member's last tool choice in a team is remembered for their next new chat.

-- AlterTable
ALTER TABLE "McpServer" ADD COLUMN     "onByDefault" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Membership" ADD COLUMN     "lastToolSelection" JSONB;
