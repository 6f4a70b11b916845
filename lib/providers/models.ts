// A team's models: enabling listed models, adding one by hand, editing its flags and options,
// deleting it, the team's default and fallback model, and the enabled models members may pick. The
// instance provider's models are usable by every team (default, fallback, picker), edited by none.
import { audited } from "../audit";
import { db } from "../db/client";
import { z } from "zod";
import { Prisma } from "../db/generated/client";
import { Conflict, Forbidden, Invalid, NotFound } from "../errors";
import type { TeamContext } from "../teams/team-context";
import { kindInfo } from "./kinds";
import type { ModelFormInput } from "./schemas";
import { INSTANCE_READ_ONLY, providerRow } from "./admin";
import { visibleTo } from "./scope";
import { suggestedPrices } from "../usage/price-table";

/** Enabled models of enabled providers the team may use (its own and the instance's). */
const usableBy = (teamId: string) => ({ enabled: true, provider: { enabled: true, ...visibleTo(teamId) } });

async function modelOfTeam(teamId: string, modelRowId: string) {
  const prisma = await db();
  const row = await prisma.model.findFirst({ where: { id: modelRowId, provider: visibleTo(teamId) }, include: { provider: true } });
  if (!row) throw NotFound("No such model in this team.");
  if (row.provider.teamId === null) throw Forbidden(INSTANCE_READ_ONLY);
  return row;
}

/** Enables the given provider model ids (from "Fetch models"), creating rows for new ones. */
export async function enableModels(ctx: TeamContext, providerId: string, modelIds: string[]): Promise<number> {
  await providerRow(ctx.team.id, providerId);
  await audited(
    ctx,
    async (tx) => {
      for (const modelId of modelIds) {
        await tx.model.upsert({
          where: { providerId_modelId: { providerId, modelId } },
          // A model Parley knows starts with the price table's prices (lib/usage/price-table.ts).
          create: { providerId, modelId, displayName: modelId, enabled: true, ...suggestedPrices(modelId) },
          update: { enabled: true },
        });
      }
    },
    { action: "model.enable", targetType: "provider", targetId: providerId, data: { modelIds } },
  );
  await adoptDefault(ctx.team.id);
  return modelIds.length;
}

/** A team without a usable default gets its first enabled model as default. */
async function adoptDefault(teamId: string) {
  const prisma = await db();
  const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId }, select: { defaultModelId: true } });
  if (team.defaultModelId && (await prisma.model.findFirst({ where: { id: team.defaultModelId, ...usableBy(teamId) } }))) return;
  const first = await prisma.model.findFirst({ where: usableBy(teamId), orderBy: { createdAt: "asc" } });
  if (first) await prisma.team.update({ where: { id: teamId }, data: { defaultModelId: first.id } });
}

function modelData(input: ModelFormInput) {
  return {
    modelId: input.modelId,
    displayName: input.displayName || input.modelId,
    toolCalling: input.toolCalling,
    vision: input.vision,
    reasoning: input.reasoning,
    webSearch: input.webSearch,
    enabled: input.enabled,
    contextWindow: input.contextWindow,
    inputPrice: input.inputPrice,
    cachedInputPrice: input.cachedInputPrice,
    outputPrice: input.outputPrice,
    providerOptions: input.providerOptions === null ? Prisma.DbNull : (input.providerOptions as Prisma.InputJsonObject),
  };
}

/** Creates (modelRowId absent) or updates a model of a provider. */
export async function saveModel(ctx: TeamContext, providerId: string, modelRowId: string | undefined, input: ModelFormInput) {
  const provider = await providerRow(ctx.team.id, providerId);
  if (input.webSearch && !kindInfo(provider.kind).webSearch) {
    throw Invalid("Please correct the highlighted fields.", { webSearch: "Web search is offered only for OpenAI (Responses API) providers." });
  }
  if (modelRowId) {
    const existing = await modelOfTeam(ctx.team.id, modelRowId);
    if (existing.providerId !== providerId) throw NotFound("No such model in this provider.");
  }
  const prisma = await db();
  const dup = await prisma.model.findFirst({ where: { providerId, modelId: input.modelId, ...(modelRowId ? { NOT: { id: modelRowId } } : {}) } });
  if (dup) throw Conflict("This provider already has a model with this id.", { modelId: "Already added." });
  const data = modelData(input);
  const row = await audited(
    ctx,
    (tx) => (modelRowId ? tx.model.update({ where: { id: modelRowId }, data }) : tx.model.create({ data: { providerId, ...data } })),
    (row) => ({
      action: modelRowId ? "model.update" : "model.create",
      targetType: "model",
      targetId: row.id,
      data: { providerId, ...data, providerOptions: input.providerOptions ? "set" : null },
    }),
  );
  await adoptDefault(ctx.team.id);
  return row;
}

export async function deleteModel(ctx: TeamContext, modelRowId: string): Promise<void> {
  const row = await modelOfTeam(ctx.team.id, modelRowId);
  // The team's default or fallback and chats that chose the model lose it with the row (foreign keys).
  await audited(ctx, (tx) => tx.model.delete({ where: { id: modelRowId } }), {
    action: "model.delete",
    targetType: "model",
    targetId: modelRowId,
    data: { modelId: row.modelId, providerId: row.providerId },
  });
  await adoptDefault(ctx.team.id);
}

export async function setTeamModels(ctx: TeamContext, input: { defaultModelId: string; fallbackModelId: string }) {
  const prisma = await db();
  const usable = async (id: string) => Boolean(await prisma.model.findFirst({ where: { id, ...usableBy(ctx.team.id) } }));
  const fields: Record<string, string> = {};
  if (input.defaultModelId && !(await usable(input.defaultModelId))) fields.defaultModelId = "Choose an enabled model of this team.";
  if (input.fallbackModelId && !(await usable(input.fallbackModelId))) fields.fallbackModelId = "Choose an enabled model of this team.";
  if (input.fallbackModelId && input.fallbackModelId === input.defaultModelId) fields.fallbackModelId = "The fallback must be another model than the default.";
  if (Object.keys(fields).length) throw Invalid("Please correct the highlighted fields.", fields);
  const data = { defaultModelId: input.defaultModelId || null, fallbackModelId: input.fallbackModelId || null };
  await audited(ctx, (tx) => tx.team.update({ where: { id: ctx.team.id }, data }), { action: "team.models", targetType: "team", targetId: ctx.team.id, data });
}

type PickerModel = { id: string; name: string; modelId: string; vision: boolean; reasoning: boolean; webSearch: boolean; tools: boolean };
export type PickerGroup = { provider: string; models: PickerModel[] };

/** The enabled models of enabled providers, grouped by provider, for the composer's picker. */
export async function pickerModels(teamId: string): Promise<{ groups: PickerGroup[]; defaultModelId: string | null }> {
  const prisma = await db();
  const [providers, team] = await Promise.all([
    prisma.provider.findMany({
      where: { enabled: true, ...visibleTo(teamId) },
      include: { models: { where: { enabled: true }, orderBy: [{ displayName: "asc" }, { modelId: "asc" }] } },
      orderBy: { name: "asc" },
    }),
    prisma.team.findUnique({ where: { id: teamId }, select: { defaultModelId: true } }),
  ]);
  const groups = providers
    .filter((p) => p.models.length)
    .map((p) => ({
      provider: p.name,
      models: p.models.map((m) => ({
        id: m.id,
        name: m.displayName,
        modelId: m.modelId,
        vision: m.vision,
        reasoning: m.reasoning,
        webSearch: m.webSearch,
        tools: m.toolCalling !== "none",
      })),
    }));
  const all = groups.flatMap((g) => g.models);
  const defaultModelId = all.some((m) => m.id === team?.defaultModelId) ? team!.defaultModelId : (all[0]?.id ?? null);
  return { groups, defaultModelId };
}

export const providerToolsSchema = z.object({ modelRowId: z.string().min(1).max(64), allowed: z.enum(["true", "false"]).transform((v) => v === "true") });

/**
 * Whether a model may use tools that run at its provider (web search): they run outside Parley's
 * approval, so an admin decides per model. Audited.
 */
export async function setProviderToolsAllowed(ctx: TeamContext, modelRowId: string, allowed: boolean): Promise<void> {
  const row = await modelOfTeam(ctx.team.id, modelRowId);
  if (row.providerToolsAllowed === allowed) return;
  await audited(ctx, (tx) => tx.model.update({ where: { id: modelRowId }, data: { providerToolsAllowed: allowed } }), {
    action: "model.provider-tools",
    targetType: "model",
    targetId: modelRowId,
    data: { model: row.modelId, allowed },
  });
}
