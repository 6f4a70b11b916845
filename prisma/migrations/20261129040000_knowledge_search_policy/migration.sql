-- Whether a knowledge search waits for approval in the team's chats (lib/knowledge/search-policy.ts):
-- auto (the default: a search of the team's own documents runs at once), ask, admin or deny.
ALTER TABLE "Team" ADD COLUMN "knowledgeSearchPolicy" "ToolPolicy" NOT NULL DEFAULT 'auto';
