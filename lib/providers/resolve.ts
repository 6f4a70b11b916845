// Which model a chat's turn uses: the chat's choice when it is still enabled, else the team default
// (`fellBack` says so, so the turn can show a notice). Also the team's fallback model for a turn whose
// provider fails before the first token.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { db } from "../db/client";
import type { Model, Provider } from "../db/generated/client";
import { AppError } from "../errors";
import { languageModel, providerTools } from "./model-factory";

export type ResolvedModel = {
  model: LanguageModelV3;
  modelRowId: string;
  modelId: string;
  displayName: string;
  providerId: string;
  providerName: string;
  kind: Provider["kind"];
  toolCalling: Model["toolCalling"];
  /** Provider-native tools this model offers (web search). */
  providerTools: ToolSet;
  /** Model.providerOptions, passed to streamText. */
  providerOptions?: Record<string, Record<string, unknown>>;
  fellBack: boolean;
};

export class NoModelError extends AppError {
  constructor() {
    super("NoModel", 409, "No model is available for this team yet. An admin needs to connect a provider.");
  }
}

type Row = Model & { provider: Provider };

export function toResolved(row: Row, fellBack = false): ResolvedModel {
  return {
    model: languageModel(row.provider, row.modelId),
    modelRowId: row.id,
    modelId: row.modelId,
    displayName: row.displayName,
    providerId: row.providerId,
    providerName: row.provider.name,
    kind: row.provider.kind,
    toolCalling: row.toolCalling,
    providerTools: providerTools(row.provider, row),
    providerOptions: (row.providerOptions ?? undefined) as ResolvedModel["providerOptions"],
    fellBack,
  };
}

const usable = (teamId: string) => ({ enabled: true, provider: { teamId, enabled: true } });
const include = { provider: true } as const;

export async function resolveChatModel(teamId: string, wantedModelRowId: string | null | undefined): Promise<ResolvedModel> {
  const prisma = await db();
  let fellBack = false;
  let row = wantedModelRowId ? await prisma.model.findFirst({ where: { id: wantedModelRowId, ...usable(teamId) }, include }) : null;
  if (!row) {
    fellBack = Boolean(wantedModelRowId);
    const team = await prisma.team.findUnique({ where: { id: teamId }, select: { defaultModelId: true } });
    row = team?.defaultModelId ? await prisma.model.findFirst({ where: { id: team.defaultModelId, ...usable(teamId) }, include }) : null;
    row ??= await prisma.model.findFirst({ where: usable(teamId), include, orderBy: { createdAt: "asc" } });
  }
  if (!row) throw new NoModelError();
  return toResolved(row, fellBack);
}

/**
 * The team's fallback model for a turn on `primaryRowId`, or null: none set, not usable, the same
 * model, or a model without tool calling for a turn that offers tools.
 */
export async function resolveFallbackModel(teamId: string, primaryRowId: string, needsTools: boolean): Promise<ResolvedModel | null> {
  const prisma = await db();
  const team = await prisma.team.findUnique({ where: { id: teamId }, select: { fallbackModelId: true } });
  if (!team?.fallbackModelId || team.fallbackModelId === primaryRowId) return null;
  const row = await prisma.model.findFirst({ where: { id: team.fallbackModelId, ...usable(teamId) }, include });
  if (!row || (needsTools && row.toolCalling === "none")) return null;
  return toResolved(row);
}
