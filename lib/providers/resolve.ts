// Which model a chat's turn uses: the chat's choice when it is still enabled, else the team default
// (`fellBack` says so, so the turn can show a notice), and the team's fallback model for a turn whose
// provider fails before the first token.
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import { db } from "../db/client";
import type { Model, Provider } from "../db/generated/client";
import { AppError } from "../errors";
import { languageModel, providerTools } from "./model-factory";
import { isVisibleTo, visibleTo } from "./scope";

export type ResolvedModel = {
  model: LanguageModelV4;
  modelRowId: string;
  modelId: string;
  displayName: string;
  providerId: string;
  providerName: string;
  kind: Provider["kind"];
  toolCalling: Model["toolCalling"];
  /** Takes images as input (the admin's capability flag). */
  vision: boolean;
  /** Tokens the model reads at most, as its admin set it (null: not set). */
  contextWindow: number | null;
  /** Provider-native tools this model offers (web search). */
  providerTools: ToolSet;
  /** Model.providerOptions, passed to streamText. */
  providerOptions?: Record<string, Record<string, unknown>>;
  fellBack: boolean;
  /** US dollars per million tokens, as an admin set them (null: unknown); budgets estimate with them. */
  prices: { inputPrice: number | null; cachedInputPrice: number | null; outputPrice: number | null };
};

/** No usable model: an admin is told where to connect a provider, a member whom to ask. */
export class NoModelError extends AppError {
  constructor(forAdmin = false) {
    super(
      "NoModel",
      409,
      forAdmin
        ? "No model is available for this team yet. Connect a provider under Admin → Providers."
        : "No model is available for this team yet. Ask an admin of your team to connect a provider.",
    );
  }
}

type Row = Model & { provider: Provider };

function toResolved(row: Row, fellBack = false): ResolvedModel {
  return {
    model: languageModel(row.provider, row.modelId),
    modelRowId: row.id,
    modelId: row.modelId,
    displayName: row.displayName,
    providerId: row.providerId,
    providerName: row.provider.name,
    kind: row.provider.kind,
    toolCalling: row.toolCalling,
    vision: row.vision,
    contextWindow: row.contextWindow,
    // Provider-executed tools run outside Parley's approval: only when an admin allows them for this model.
    providerTools: row.providerToolsAllowed ? providerTools(row.provider, row) : {},
    providerOptions: (row.providerOptions ?? undefined) as ResolvedModel["providerOptions"],
    prices: { inputPrice: row.inputPrice, cachedInputPrice: row.cachedInputPrice, outputPrice: row.outputPrice },
    fellBack,
  };
}

const usable = (teamId: string) => ({ enabled: true, provider: { enabled: true, ...visibleTo(teamId) } });
const include = { provider: true } as const;
const isUsable = (row: Row, teamId: string) => row.enabled && row.provider.enabled && isVisibleTo(row.provider, teamId);

/** The team's default and fallback model (ids of Model rows). */
export type TeamModelChoice = { defaultModelId: string | null; fallbackModelId: string | null };

export async function teamModelChoice(teamId: string): Promise<TeamModelChoice> {
  const prisma = await db();
  const team = await prisma.team.findUnique({ where: { id: teamId }, select: { defaultModelId: true, fallbackModelId: true } });
  return team ?? { defaultModelId: null, fallbackModelId: null };
}

/**
 * What a turn's read of its chat includes, so that its models come in the same query: the chat's
 * chosen model and the team's default and fallback, each with its provider.
 */
export const chatModelsInclude = {
  model: { include },
  team: { select: { defaultModel: { include }, fallbackModel: { include } } },
} as const;

export type ChatModels = { model: Row | null; team: { defaultModel: Row | null; fallbackModel: Row | null } };

/**
 * The models of a turn: the wanted one (the composer's choice, else the chat's) when it is still
 * usable, else the team default (`fellBack` says so), else the team's oldest usable model; and the
 * team's fallback model, or null when none is set, it is not usable or it is the model answering
 * anyway. `known` holds the rows read with the chat; a query runs only for a model outside them.
 * Whether the fallback may take over a turn that offers tools is the turn's call (turn-model.ts).
 */
export async function resolveTurnModels(
  teamId: string,
  wantedModelRowId: string | null | undefined,
  known: ChatModels,
): Promise<{ primary: ResolvedModel; fallback: ResolvedModel | null }> {
  const prisma = await db();
  const usableRow = (row: Row | null) => (row && isUsable(row, teamId) ? row : undefined);
  const { defaultModel, fallbackModel } = known.team;
  let row: Row | undefined;
  if (wantedModelRowId) {
    row = [known.model, defaultModel, fallbackModel].find((r) => r?.id === wantedModelRowId) ?? undefined;
    row = row ? usableRow(row) : ((await prisma.model.findFirst({ where: { id: wantedModelRowId, ...usable(teamId) }, include })) ?? undefined);
  }
  const fellBack = Boolean(wantedModelRowId) && !row;
  row ??= usableRow(defaultModel) ?? (await prisma.model.findFirst({ where: usable(teamId), include, orderBy: { createdAt: "asc" } })) ?? undefined;
  if (!row) throw new NoModelError();
  const fallback = fallbackModel && fallbackModel.id !== row.id ? usableRow(fallbackModel) : undefined;
  return { primary: toResolved(row, fellBack), fallback: fallback ? toResolved(fallback) : null };
}
