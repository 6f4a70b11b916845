// Admin operations on a team's providers: list (a view without secrets), create, edit, enable/disable,
// delete, test settings. Keys and headers are write-only (stored-secrets.ts): encrypted bound to the
// base URL's origin, shown only as a mask. The operator's instance provider (teamId null) is listed
// and usable, never editable or testable by team admins. Every change is an audit event, without secrets.
import { audited } from "../audit";
import { db } from "../db/client";
import type { Prisma, ProviderKind, ToolCallingMode } from "../db/generated/client";
import { Conflict, Forbidden, NotFound } from "../errors";
import { maskSecret } from "../security/secrets";
import { readJsonSecret, sealJsonSecret, sealSecret, secretMoved, writeOnly } from "../security/stored-secrets";
import type { TeamContext } from "../teams/team-context";
import { effectiveBaseUrl } from "./kinds";
import { listProviderModels, type ProbeResult } from "./probe";
import { parseHeaderLines, type ProviderFormInput } from "./schemas";
import { visibleTo } from "./scope";

export type ModelView = {
  id: string;
  modelId: string;
  displayName: string;
  enabled: boolean;
  toolCalling: ToolCallingMode;
  vision: boolean;
  reasoning: boolean;
  webSearch: boolean;
  /** Tools that run at the provider (web search) are allowed for this model; they run without Parley's approval. */
  providerToolsAllowed: boolean;
  contextWindow: number | null;
  /** Pretty-printed JSON, or "" (admin-only view; never a secret). */
  providerOptions: string;
  /** US dollars per million tokens (null: unknown). */
  inputPrice: number | null;
  cachedInputPrice: number | null;
  outputPrice: number | null;
};

/** What the browser may see of a provider: never a key, a header value or a ciphertext. */
export type ProviderView = {
  id: string;
  name: string;
  kind: ProviderKind;
  baseUrl: string | null;
  apiKeyHint: string | null;
  headerNames: string[];
  enabled: boolean;
  origin: string;
  /** "instance": the operator's provider from the environment, shared by every team, read-only here. */
  scope: "team" | "instance";
  models: ModelView[];
};

const include = { models: { orderBy: [{ displayName: "asc" }, { modelId: "asc" }] } } as const satisfies Prisma.ProviderInclude;
type Row = Prisma.ProviderGetPayload<{ include: typeof include }>;

function toView(p: Row): ProviderView {
  const instance = p.teamId === null;
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    baseUrl: p.baseUrl,
    // Not even a mask of the operator's key goes to team admins.
    apiKeyHint: instance ? null : p.apiKeyHint,
    headerNames: instance ? [] : headerNamesOf(p.headersEnc),
    enabled: p.enabled,
    origin: p.origin,
    scope: instance ? "instance" : "team",
    models: p.models.map((m) => ({
      id: m.id,
      modelId: m.modelId,
      displayName: m.displayName,
      enabled: m.enabled,
      toolCalling: m.toolCalling,
      vision: m.vision,
      reasoning: m.reasoning,
      webSearch: m.webSearch,
      providerToolsAllowed: m.providerToolsAllowed,
      contextWindow: m.contextWindow,
      providerOptions: m.providerOptions == null ? "" : JSON.stringify(m.providerOptions, null, 2),
      inputPrice: m.inputPrice,
      cachedInputPrice: m.cachedInputPrice,
      outputPrice: m.outputPrice,
    })),
  };
}

/** Header names (not values) for the masked display; decrypted on the server only. */
function headerNamesOf(headersEnc: string | null): string[] {
  if (!headersEnc) return [];
  try {
    return Object.keys(readJsonSecret<Record<string, string>>(headersEnc) ?? {});
  } catch {
    return ["(cannot be decrypted)"];
  }
}

export async function listProviders(teamId: string): Promise<ProviderView[]> {
  const prisma = await db();
  const rows = await prisma.provider.findMany({ where: visibleTo(teamId), include, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
}

export async function getProvider(teamId: string, id: string): Promise<ProviderView> {
  const prisma = await db();
  const row = await prisma.provider.findFirst({ where: { id, ...visibleTo(teamId) }, include });
  if (!row) throw NotFound("No such provider in this team.");
  return toView(row);
}

export const INSTANCE_READ_ONLY =
  "This provider is set by the operator of this instance (environment variables). Team admins can use its models and make one the team default, but cannot change, test or delete it.";

/** A provider of the team that its admins may change or probe (the row with its secrets, server only). */
export async function providerRow(teamId: string, id: string) {
  const prisma = await db();
  const row = await prisma.provider.findFirst({ where: { id, ...visibleTo(teamId) } });
  if (!row) throw NotFound("No such provider in this team.");
  if (row.teamId === null) throw Forbidden(INSTANCE_READ_ONLY);
  return row;
}

async function assertNameFree(teamId: string, name: string, exceptId?: string) {
  const prisma = await db();
  // Compared here, not with Prisma's `mode: "insensitive"`: that becomes an unescaped ILIKE, where
  // "_" and "%" are wildcards ("my_model" would clash with "my-model").
  const others = await prisma.provider.findMany({ where: { teamId, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { name: true } });
  if (others.some((p) => p.name.toLowerCase() === name.toLowerCase()))
    throw Conflict("A provider with this name already exists in this team.", { name: "A provider with this name already exists." });
}

type StoredSecrets = Pick<Row, "kind" | "baseUrl" | "apiKeyEnc" | "apiKeyHint" | "headersEnc">;

/**
 * The key and headers the form's values mean, sealed for the form's base URL: new values replace,
 * "clear" removes, empty keeps the stored ones, unless the base URL moved to another origin (then the
 * admin must enter them again: a 400 with field errors).
 */
function secretFields(input: ProviderFormInput, existing?: StoredSecrets) {
  const target = effectiveBaseUrl(input.kind, input.baseUrl || null) ?? "";
  const savedFor = existing ? (effectiveBaseUrl(existing.kind, existing.baseUrl) ?? null) : null;
  const stored = (enc: string | null | undefined) => ({ stored: enc ?? undefined, moved: secretMoved(enc, savedFor, target) });
  const headers = input.headers ? (parseHeaderLines(input.headers).headers ?? {}) : undefined;
  const apiKeyEnc = writeOnly("apiKey", input.apiKey ? sealSecret(input.apiKey, target) : undefined, {
    clear: input.clearApiKey,
    ...stored(existing?.apiKeyEnc),
  });
  const headersEnc = writeOnly("headers", headers ? sealJsonSecret(headers, target) : undefined, {
    clear: input.clearHeaders,
    ...stored(existing?.headersEnc),
  });
  return {
    apiKeyEnc: apiKeyEnc ?? null,
    apiKeyHint: input.apiKey ? maskSecret(input.apiKey) : apiKeyEnc ? (existing?.apiKeyHint ?? null) : null,
    headersEnc: headersEnc ?? null,
  };
}

/**
 * "Test connection" with the form's values (an empty key or header field means the stored ones of the
 * provider being edited, under the same rule as saving). Nothing is saved.
 */
export async function testProviderSettings(ctx: TeamContext, providerId: string | undefined, input: ProviderFormInput): Promise<ProbeResult> {
  const existing = providerId ? await providerRow(ctx.team.id, providerId) : undefined;
  const { apiKeyEnc, headersEnc } = secretFields(input, existing);
  const savedFor = existing ? (effectiveBaseUrl(existing.kind, existing.baseUrl) ?? null) : null;
  return listProviderModels({ kind: input.kind, baseUrl: input.baseUrl || null, apiKeyEnc, headersEnc, savedFor });
}

/** What the audit log may say about a provider change: never the key or header values. */
function auditData(input: ProviderFormInput) {
  return {
    name: input.name,
    kind: input.kind,
    baseUrl: input.baseUrl || null,
    enabled: input.enabled,
    apiKey: input.apiKey ? "changed" : input.clearApiKey ? "cleared" : "unchanged",
    headers: input.headers ? "changed" : input.clearHeaders ? "cleared" : "unchanged",
  };
}

export async function createProvider(ctx: TeamContext, input: ProviderFormInput): Promise<ProviderView> {
  await assertNameFree(ctx.team.id, input.name);
  const row = await audited(
    ctx,
    (tx) =>
      tx.provider.create({
        data: {
          teamId: ctx.team.id,
          name: input.name,
          kind: input.kind,
          baseUrl: input.baseUrl || null,
          enabled: input.enabled,
          origin: "admin",
          ...secretFields(input),
        },
        include,
      }),
    (row) => ({ action: "provider.create", targetType: "provider", targetId: row.id, data: auditData(input) }),
  );
  return toView(row);
}

export async function updateProvider(ctx: TeamContext, id: string, input: ProviderFormInput): Promise<ProviderView> {
  const existing = await providerRow(ctx.team.id, id);
  await assertNameFree(ctx.team.id, input.name, id);
  const row = await audited(
    ctx,
    (tx) =>
      tx.provider.update({
        where: { id },
        data: { name: input.name, kind: input.kind, baseUrl: input.baseUrl || null, enabled: input.enabled, ...secretFields(input, existing) },
        include,
      }),
    { action: "provider.update", targetType: "provider", targetId: id, data: auditData(input) },
  );
  return toView(row);
}

export async function setProviderEnabled(ctx: TeamContext, id: string, enabled: boolean): Promise<void> {
  await providerRow(ctx.team.id, id);
  await audited(ctx, (tx) => tx.provider.update({ where: { id }, data: { enabled } }), {
    action: enabled ? "provider.enable" : "provider.disable",
    targetType: "provider",
    targetId: id,
  });
}

export async function deleteProvider(ctx: TeamContext, id: string): Promise<void> {
  const row = await providerRow(ctx.team.id, id);
  // Its models go with it, and with them the team's default or fallback among them (foreign keys).
  await audited(ctx, (tx) => tx.provider.delete({ where: { id } }), {
    action: "provider.delete",
    targetType: "provider",
    targetId: id,
    data: { name: row.name, kind: row.kind },
  });
}
