-- The team's default and fallback model and a chat's chosen model become foreign keys: deleting a
-- model clears them (they were cleared by hand before, and a chat's could dangle). Ids that point
-- nowhere are cleared first.
UPDATE "Team" SET "defaultModelId" = NULL WHERE "defaultModelId" IS NOT NULL AND "defaultModelId" NOT IN (SELECT "id" FROM "Model");
UPDATE "Team" SET "fallbackModelId" = NULL WHERE "fallbackModelId" IS NOT NULL AND "fallbackModelId" NOT IN (SELECT "id" FROM "Model");
UPDATE "Chat" SET "modelId" = NULL WHERE "modelId" IS NOT NULL AND "modelId" NOT IN (SELECT "id" FROM "Model");

-- CreateIndex
CREATE INDEX "Chat_modelId_idx" ON "Chat"("modelId");

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_defaultModelId_fkey" FOREIGN KEY ("defaultModelId") REFERENCES "Model"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Team" ADD CONSTRAINT "Team_fallbackModelId_fkey" FOREIGN KEY ("fallbackModelId") REFERENCES "Model"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Chat" ADD CONSTRAINT "Chat_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE SET NULL ON UPDATE CASCADE;
