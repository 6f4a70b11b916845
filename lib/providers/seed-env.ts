// Seeds a provider from the environment at start-up (OPENAI_API_KEY, OPENAI_BASE_URL,
// PARLEY_DEFAULT_MODEL, PARLEY_PROVIDER_KIND) into every team: a normal provider row (key encrypted),
// created or updated, with the model enabled and made the team default when the team has none.
import { config, type Config } from "../config";
import type { PrismaClient, ProviderKind } from "../db/generated/client";
import { encryptSecret } from "../security/keyring";
import { maskSecret } from "../security/secrets";

export const ENV_PROVIDER_NAME = "From environment";

export type EnvProvider = { kind: ProviderKind; baseUrl?: string; apiKey?: string; model: string };

function envProvider(env: Config = config()): EnvProvider | undefined {
  const apiKey = env.OPENAI_API_KEY;
  const baseUrl = env.OPENAI_BASE_URL;
  if (!apiKey && !baseUrl) return undefined;
  const kinds: Record<string, ProviderKind> = {
    responses: "openai_responses",
    openai_responses: "openai_responses",
    chat: "openai_chat",
    openai_chat: "openai_chat",
    compatible: "openai_compatible",
    openai_compatible: "openai_compatible",
  };
  const requested = env.PARLEY_PROVIDER_KIND; // checked by the configuration's schema
  const kind = requested ? kinds[requested] : baseUrl ? "openai_chat" : "openai_responses";
  return { kind, baseUrl, apiKey, model: env.PARLEY_DEFAULT_MODEL };
}

export async function seedEnvProvider(prisma: PrismaClient, teamId: string, seed = envProvider()): Promise<void> {
  if (!seed) return;
  const data = {
    kind: seed.kind,
    baseUrl: seed.baseUrl ?? null,
    apiKeyEnc: seed.apiKey ? encryptSecret(seed.apiKey) : null,
    apiKeyHint: seed.apiKey ? maskSecret(seed.apiKey) : null,
    enabled: true,
    origin: "env",
  };
  const provider = await prisma.provider.upsert({
    where: { teamId_name: { teamId, name: ENV_PROVIDER_NAME } },
    create: { teamId, name: ENV_PROVIDER_NAME, ...data },
    update: data,
  });
  const model = await prisma.model.upsert({
    where: { providerId_modelId: { providerId: provider.id, modelId: seed.model } },
    create: { providerId: provider.id, modelId: seed.model, displayName: seed.model },
    update: { enabled: true },
  });
  await prisma.team.updateMany({ where: { id: teamId, defaultModelId: null }, data: { defaultModelId: model.id } });
}

export async function seedAllTeams(prisma: PrismaClient): Promise<void> {
  const seed = envProvider();
  if (!seed) return;
  for (const team of await prisma.team.findMany({ select: { id: true } })) await seedEnvProvider(prisma, team.id, seed);
}
