// Admin operations on a team's providers: list (a view without secrets), create, edit, enable/disable,
// delete. Keys and headers are write-only: encrypted on the way in, shown only as a mask. Every change
// is an audit event, without secrets.
import { audited } from "../audit";
import { db } from "../db/client";
import type { Prisma, ProviderKind, ToolCallingMode } from "../db/generated/client";
import { Conflict, NotFound } from "../errors";
import { decryptSecret, encryptSecret } from "../security/keyring";
import { maskSecret } from "../security/secrets";
import type { TeamContext } from "../teams/context";
import { parseHeaderLines, type ProviderFormInput } from "./schemas";

export type ModelView = {
  id: string;
  modelId: string;
  displayName: string;
  enabled: boolean;
  toolCalling: ToolCallingMode;
  vision: boolean;
  reasoning: boolean;
  webSearch: boolean;
  contextWindow: number | null;
  /** Pretty-printed JSON, or "" (admin-only view; never a secret). */
  providerOptions: string;
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
  models: ModelView[];
};

const include = { models: { orderBy: [{ displayName: "asc" }, { modelId: "asc" }] } } as const satisfies Prisma.ProviderInclude;
type Row = Prisma.ProviderGetPayload<{ include: typeof include }>;

function toView(p: Row): ProviderView {
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    baseUrl: p.baseUrl,
    apiKeyHint: p.apiKeyHint,
    headerNames: headerNamesOf(p.headersEnc),
    enabled: p.enabled,
    origin: p.origin,
    models: p.models.map((m) => ({
      id: m.id,
      modelId: m.modelId,
      displayName: m.displayName,
      enabled: m.enabled,
      toolCalling: m.toolCalling,
      vision: m.vision,
      reasoning: m.reasoning,
      webSearch: m.webSearch,
      contextWindow: m.contextWindow,
      providerOptions: m.providerOptions == null ? "" : JSON.stringify(m.providerOptions, null, 2),
    })),
  };
}

/** Header names (not values) for the masked display; decrypted on the server only. */
function headerNamesOf(headersEnc: string | null): string[] {
  if (!headersEnc) return [];
  try {
    return Object.keys(JSON.parse(decryptSecret(headersEnc)) as Record<string, string>);
  } catch {
    return ["(cannot be decrypted)"];
  }
}

export async function listProviders(teamId: string): Promise<ProviderView[]> {
  const prisma = await db();
  const rows = await prisma.provider.findMany({ where: { teamId }, include, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
}

export async function getProvider(teamId: string, id: string): Promise<ProviderView> {
  const prisma = await db();
  const row = await prisma.provider.findFirst({ where: { id, teamId }, include });
  if (!row) throw NotFound("No such provider in this team.");
  return toView(row);
}

/** The row with its secrets, for probes and model building on the server only. */
export async function providerRow(teamId: string, id: string) {
  const prisma = await db();
  const row = await prisma.provider.findFirst({ where: { id, teamId } });
  if (!row) throw NotFound("No such provider in this team.");
  return row;
}

async function assertNameFree(teamId: string, name: string, exceptId?: string) {
  const prisma = await db();
  // Compared here, not with Prisma's `mode: "insensitive"`: that becomes an unescaped ILIKE, where
  // "_" and "%" are wildcards ("my_model" would clash with "my-model").
  const others = await prisma.provider.findMany({ where: { teamId, ...(exceptId ? { NOT: { id: exceptId } } : {}) }, select: { name: true } });
  if (others.some((p) => p.name.toLowerCase() === name.toLowerCase())) throw Conflict("A provider with this name already exists in this team.", { name: "A provider with this name already exists." });
}

function secretFields(input: ProviderFormInput, editing: boolean) {
  const out: { apiKeyEnc?: string | null; apiKeyHint?: string | null; headersEnc?: string | null } = {};
  if (input.apiKey) {
    out.apiKeyEnc = encryptSecret(input.apiKey);
    out.apiKeyHint = maskSecret(input.apiKey);
  } else if (!editing || input.clearApiKey) {
    out.apiKeyEnc = null;
    out.apiKeyHint = null;
  }
  if (input.headers) {
    out.headersEnc = encryptSecret(JSON.stringify(parseHeaderLines(input.headers).headers ?? {}));
  } else if (!editing || input.clearHeaders) {
    out.headersEnc = null;
  }
  return out;
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
        data: { teamId: ctx.team.id, name: input.name, kind: input.kind, baseUrl: input.baseUrl || null, enabled: input.enabled, origin: "admin", ...secretFields(input, false) },
        include,
      }),
    (row) => ({ action: "provider.create", targetType: "provider", targetId: row.id, data: auditData(input) }),
  );
  return toView(row);
}

export async function updateProvider(ctx: TeamContext, id: string, input: ProviderFormInput): Promise<ProviderView> {
  await providerRow(ctx.team.id, id);
  await assertNameFree(ctx.team.id, input.name, id);
  const row = await audited(
    ctx,
    (tx) =>
      tx.provider.update({
        where: { id },
        data: { name: input.name, kind: input.kind, baseUrl: input.baseUrl || null, enabled: input.enabled, ...secretFields(input, true) },
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
