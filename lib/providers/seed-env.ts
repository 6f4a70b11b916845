// The operator's provider from the environment (OPENAI_API_KEY, OPENAI_BASE_URL, PARLEY_DEFAULT_MODEL,
// PARLEY_PROVIDER_KIND): one instance-level provider row (teamId null, fixed id), written at start-up
// with its key sealed for its base URL's origin, and its model enabled. Every team may use it and gets
// its model as default when it has none; no team admin can change, probe or delete it. When the
// environment no longer names a provider, the row is disabled (kept, so chats keep their history).
import { config } from "../config";
import type { PrismaClient, ProviderKind } from "../db/generated/client";
import { maskSecret } from "../security/secrets";
import { sealSecret } from "../security/stored-secrets";
import { effectiveBaseUrl } from "./kinds";

const ENV_PROVIDER_NAME = "From environment";
export const INSTANCE_PROVIDER_ID = "instance-env";

export type EnvProvider = { kind: ProviderKind; baseUrl?: string; apiKey?: string; model: string };

const KINDS: Record<string, ProviderKind> = {
  responses: "openai_responses",
  openai_responses: "openai_responses",
  chat: "openai_chat",
  openai_chat: "openai_chat",
  compatible: "openai_compatible",
  openai_compatible: "openai_compatible",
};

function envProvider(): EnvProvider | undefined {
  const c = config();
  const apiKey = c.OPENAI_API_KEY;
  const baseUrl = c.OPENAI_BASE_URL;
  if (!apiKey && !baseUrl) return undefined;
  const kind = c.PARLEY_PROVIDER_KIND ? KINDS[c.PARLEY_PROVIDER_KIND] : baseUrl ? "openai_chat" : "openai_responses";
  return { kind, baseUrl, apiKey, model: c.PARLEY_DEFAULT_MODEL };
}

/** Writes the instance provider from `seed` (or disables it when there is none); returns its model row id. */
async function seedInstanceProvider(prisma: PrismaClient, seed = envProvider()): Promise<string | undefined> {
  if (!seed) {
    await prisma.provider.updateMany({ where: { id: INSTANCE_PROVIDER_ID }, data: { enabled: false } });
    return undefined;
  }
  const target = effectiveBaseUrl(seed.kind, seed.baseUrl);
  const data = {
    kind: seed.kind,
    baseUrl: seed.baseUrl ?? null,
    apiKeyEnc: seed.apiKey && target ? sealSecret(seed.apiKey, target) : null,
    apiKeyHint: seed.apiKey ? maskSecret(seed.apiKey) : null,
    headersEnc: null,
    enabled: true,
    origin: "env",
  };
  await prisma.provider.upsert({
    where: { id: INSTANCE_PROVIDER_ID },
    create: { id: INSTANCE_PROVIDER_ID, teamId: null, name: ENV_PROVIDER_NAME, ...data },
    update: data,
  });
  const model = await prisma.model.upsert({
    where: { providerId_modelId: { providerId: INSTANCE_PROVIDER_ID, modelId: seed.model } },
    create: { providerId: INSTANCE_PROVIDER_ID, modelId: seed.model, displayName: seed.model },
    update: { enabled: true },
  });
  return model.id;
}

/** Gives a team without a default model the instance provider's model (for a team just created). */
export async function seedEnvProvider(prisma: PrismaClient, teamId: string, seed = envProvider()): Promise<void> {
  if (!seed) return;
  const model = await prisma.model.findUnique({ where: { providerId_modelId: { providerId: INSTANCE_PROVIDER_ID, modelId: seed.model } } });
  if (model?.enabled) await prisma.team.updateMany({ where: { id: teamId, defaultModelId: null }, data: { defaultModelId: model.id } });
}

/** At start-up: the instance provider from the environment, and the default of every team without one. */
export async function seedAllTeams(prisma: PrismaClient): Promise<void> {
  const modelId = await seedInstanceProvider(prisma);
  if (modelId) await prisma.team.updateMany({ where: { defaultModelId: null }, data: { defaultModelId: modelId } });
}
