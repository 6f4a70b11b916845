// Knowledge bases' records: create, list, rename and delete a team's or a project's bases (who may do
// what: lib/knowledge/access.ts). A base names the embedding model its passages are embedded with: one
// of the team's providers and the provider's id for the model, with the number of dimensions its
// vectors have (fixed for the base's life: changing the model means a new base). Deleting a base deletes
// its documents (their files), passages and embeddings with it (foreign keys, one statement). Each change
// is an audit event.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import { Invalid, AppError } from "../errors";
import { visibleProjects } from "../projects/projects";
import { visibleTo } from "../providers/scope";
import { idField, nameField } from "../validation";
import { canManageBase, manageableBase, visibleBases, type Caller } from "./access";
import { MAX_DIMENSIONS } from "./vector-store";

const description = z.string().trim().max(2_000, "At most 2,000 characters.");

/** POST of a new base. */
export const createBaseSchema = z
  .object({
    name: nameField,
    description: description.optional(),
    /** A project of the team: the base is that project's; none: team-wide. */
    projectId: idField.optional(),
    embedding: z.object({
      providerId: idField,
      model: z.string().trim().min(1, "Enter the embedding model's id.").max(200),
      dimensions: z
        .number()
        .int()
        .min(1)
        .max(MAX_DIMENSIONS, `At most ${MAX_DIMENSIONS.toLocaleString("en")} dimensions.`),
    }),
  })
  .strict();

/** PATCH of a base: its name and description. */
export const renameBaseSchema = z.object({ name: nameField.optional(), description: description.optional() }).strict();

export type BaseInput = z.infer<typeof createBaseSchema>;
export type BaseChange = z.infer<typeof renameBaseSchema>;

export type BaseSummary = {
  id: string;
  name: string;
  description: string;
  projectId: string | null;
  embedding: { providerId: string | null; model: string; dimensions: number };
  documents: number;
  bytes: number;
  canManage: boolean;
  createdBy: string | null;
  createdAt: string;
};

/** The bases the caller sees: a project's (projectId), or the team-wide ones (projectId null), or all (undefined); by name. */
export async function listKnowledgeBases(ctx: Caller, opts: { projectId?: string | null } = {}): Promise<BaseSummary[]> {
  const prisma = await db();
  const rows = await prisma.knowledgeBase.findMany({
    where: { AND: [visibleBases(ctx), opts.projectId === undefined ? {} : { projectId: opts.projectId }] },
    include: { project: { select: { userId: true, shared: true } }, createdBy: { select: { name: true } } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  const sizes = await prisma.knowledgeDocument.groupBy({
    by: ["baseId"],
    where: { baseId: { in: rows.map((b) => b.id) } },
    _count: { _all: true },
    _sum: { size: true },
  });
  const sizeOf = new Map(sizes.map((s) => [s.baseId, { documents: s._count._all, bytes: s._sum.size ?? 0 }]));
  return rows.map((b) => ({
    id: b.id,
    name: b.name,
    description: b.description ?? "",
    projectId: b.projectId,
    embedding: { providerId: b.embeddingProviderId, model: b.embeddingModel, dimensions: b.embeddingDimensions },
    ...(sizeOf.get(b.id) ?? { documents: 0, bytes: 0 }),
    canManage: canManageBase(ctx, b),
    createdBy: b.createdBy?.name ?? null,
    createdAt: b.createdAt.toISOString(),
  }));
}

/** Creates a base as the route parsed it: team-wide (admins) or a project's (who may edit it); the provider must be the team's. */
export async function createKnowledgeBase(ctx: Caller, input: BaseInput): Promise<{ id: string }> {
  const prisma = await db();
  let project: { userId: string; shared: boolean } | null = null;
  if (input.projectId) {
    project = await prisma.project.findFirst({ where: { id: input.projectId, ...visibleProjects(ctx) }, select: { userId: true, shared: true } });
    if (!project) throw Invalid("Please correct the highlighted fields.", { projectId: "No such project." });
  }
  if (!canManageBase(ctx, { projectId: input.projectId ?? null, project })) {
    throw new AppError(
      "Forbidden",
      403,
      project ? "Only those who may edit the project can add knowledge bases to it." : "Only team admins can create team-wide knowledge bases.",
    );
  }
  const provider = await prisma.provider.findFirst({ where: { id: input.embedding.providerId, ...visibleTo(ctx.team.id) }, select: { id: true } });
  if (!provider) throw Invalid("Please correct the highlighted fields.", { "embedding.providerId": "Choose a provider of this team." });
  return audited(
    ctx,
    (tx) =>
      tx.knowledgeBase.create({
        data: {
          teamId: ctx.team.id,
          projectId: input.projectId ?? null,
          name: input.name,
          description: input.description || null,
          embeddingProviderId: provider.id,
          embeddingModel: input.embedding.model,
          embeddingDimensions: input.embedding.dimensions,
          createdById: ctx.user.id,
        },
        select: { id: true, name: true, projectId: true },
      }),
    (b) => ({ action: "knowledge.base.create", targetType: "knowledgeBase", targetId: b.id, data: { name: b.name, projectId: b.projectId } }),
  );
}

export async function renameKnowledgeBase(ctx: Caller, baseId: string, change: BaseChange): Promise<void> {
  await manageableBase(ctx, baseId);
  const data = {
    ...(change.name !== undefined && { name: change.name }),
    ...(change.description !== undefined && { description: change.description || null }),
  };
  await audited(ctx, (tx) => tx.knowledgeBase.update({ where: { id: baseId }, data }), {
    action: "knowledge.base.update",
    targetType: "knowledgeBase",
    targetId: baseId,
    data: { fields: Object.keys(data) },
  });
}

/** Deletes a base with its documents' files, passages and embeddings. */
export async function deleteKnowledgeBase(ctx: Caller, baseId: string): Promise<void> {
  const base = await manageableBase(ctx, baseId);
  await audited(ctx, (tx) => tx.knowledgeBase.delete({ where: { id: baseId } }), {
    action: "knowledge.base.delete",
    targetType: "knowledgeBase",
    targetId: baseId,
    data: { name: base.name },
  });
}
