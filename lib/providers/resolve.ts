// Which model a chat's turn uses: the chat's choice when it is still enabled, else the team default.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { db } from "../db/client";
import { AppError } from "../errors";
import { languageModel } from "./model-factory";

export type ResolvedModel = { model: LanguageModelV3; modelRowId: string; modelId: string; providerId: string; providerName: string; fellBack: boolean };

export class NoModelError extends AppError {
  constructor() {
    super("NoModel", 409, "No model is available for this team yet. An admin needs to connect a provider.");
  }
}

export async function resolveChatModel(teamId: string, wantedModelRowId: string | null | undefined): Promise<ResolvedModel> {
  const prisma = await db();
  const usable = { enabled: true, provider: { teamId, enabled: true } };
  const include = { provider: true } as const;
  let fellBack = false;
  let row = wantedModelRowId ? await prisma.model.findFirst({ where: { id: wantedModelRowId, ...usable }, include }) : null;
  if (!row) {
    fellBack = Boolean(wantedModelRowId);
    const team = await prisma.team.findUnique({ where: { id: teamId }, select: { defaultModelId: true } });
    row = team?.defaultModelId ? await prisma.model.findFirst({ where: { id: team.defaultModelId, ...usable }, include }) : null;
    row ??= await prisma.model.findFirst({ where: usable, include, orderBy: { createdAt: "asc" } });
  }
  if (!row) throw new NoModelError();
  return {
    model: languageModel(row.provider, row.modelId),
    modelRowId: row.id,
    modelId: row.modelId,
    providerId: row.providerId,
    providerName: row.provider.name,
    fellBack,
  };
}
