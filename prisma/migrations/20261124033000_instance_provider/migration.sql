-- The provider seeded from the operator's environment becomes one instance-level provider (teamId
-- NULL, id 'instance-env') instead of a copy in every team, whose admins could read its key by
-- pointing the copy at a server of their own. The copies' models become the instance provider's
-- (one per model id); teams' default and fallback models and chats' choices follow them; then the
-- copies go. The key's ciphertext is copied as is: it is bound to the same base URL.

-- AlterTable
ALTER TABLE "Provider" ALTER COLUMN "teamId" DROP NOT NULL;

INSERT INTO "Provider" ("id", "teamId", "name", "kind", "baseUrl", "apiKeyEnc", "apiKeyHint", "headersEnc", "enabled", "origin", "createdAt", "updatedAt")
SELECT 'instance-env', NULL, 'From environment', "kind", "baseUrl", "apiKeyEnc", "apiKeyHint", "headersEnc", true, 'env', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP
FROM "Provider"
WHERE "origin" = 'env' AND "teamId" IS NOT NULL
ORDER BY "updatedAt" DESC
LIMIT 1;

INSERT INTO "Model" ("id", "providerId", "modelId", "displayName", "enabled", "toolCalling", "vision", "reasoning", "webSearch", "contextWindow", "providerOptions", "createdAt", "updatedAt")
SELECT DISTINCT ON (m."modelId") 'env-' || m."id", 'instance-env', m."modelId", m."displayName", m."enabled", m."toolCalling", m."vision", m."reasoning", m."webSearch", m."contextWindow", m."providerOptions", m."createdAt", CURRENT_TIMESTAMP
FROM "Model" m JOIN "Provider" p ON p."id" = m."providerId"
WHERE p."origin" = 'env' AND p."teamId" IS NOT NULL
ORDER BY m."modelId", m."enabled" DESC, m."createdAt";

UPDATE "Team" t SET "defaultModelId" = n."id"
FROM "Model" o JOIN "Provider" p ON p."id" = o."providerId" JOIN "Model" n ON n."providerId" = 'instance-env' AND n."modelId" = o."modelId"
WHERE t."defaultModelId" = o."id" AND p."origin" = 'env' AND p."teamId" IS NOT NULL;

UPDATE "Team" t SET "fallbackModelId" = n."id"
FROM "Model" o JOIN "Provider" p ON p."id" = o."providerId" JOIN "Model" n ON n."providerId" = 'instance-env' AND n."modelId" = o."modelId"
WHERE t."fallbackModelId" = o."id" AND p."origin" = 'env' AND p."teamId" IS NOT NULL;

UPDATE "Chat" c SET "modelId" = n."id"
FROM "Model" o JOIN "Provider" p ON p."id" = o."providerId" JOIN "Model" n ON n."providerId" = 'instance-env' AND n."modelId" = o."modelId"
WHERE c."modelId" = o."id" AND p."origin" = 'env' AND p."teamId" IS NOT NULL;

UPDATE "UsageRecord" SET "providerId" = 'instance-env'
WHERE "providerId" IN (SELECT "id" FROM "Provider" WHERE "origin" = 'env' AND "teamId" IS NOT NULL);

DELETE FROM "Provider" WHERE "origin" = 'env' AND "teamId" IS NOT NULL;
