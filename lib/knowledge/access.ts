// Who may see and who may change a knowledge base, by the rules that already decide teams and projects:
//
//   team-wide base (projectId null)   every member of the team sees it and searches it; its admins
//                                     create, rename and delete it and add, replace and delete documents.
//   a project's base                  whoever sees the project sees the base (a personal project: its
//                                     creator; a shared one: the team); whoever may edit the project
//                                     (lib/projects canEditProject) changes the base and its documents.
//
// A base the caller cannot see is 404 (its existence does not leak); one they see but may not change, 403.
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError, NotFound } from "../errors";
import { canEditProject, visibleProjects } from "../projects/projects";
import type { TeamContext } from "../teams/team-context";

export type Caller = Pick<TeamContext, "user" | "team">;

/** The `where` of the knowledge bases `ctx` may see: the team's team-wide ones and those of projects they see. */
export const visibleBases = (ctx: Caller): Prisma.KnowledgeBaseWhereInput => ({
  teamId: ctx.team.id,
  OR: [{ projectId: null }, { project: visibleProjects(ctx) }],
});

type BaseOwner = { projectId: string | null; project: { userId: string; shared: boolean } | null };

/** Whether `ctx` may change a base they see (and its documents). */
export const canManageBase = (ctx: Caller, base: BaseOwner): boolean =>
  base.project ? canEditProject(ctx, base.project) : base.projectId === null && ctx.team.role === "admin";

export const refusedMessage = (base: BaseOwner) =>
  base.projectId ? "Only those who may edit the project can change its knowledge bases." : "Only team admins can change team-wide knowledge bases.";

/** A base the caller sees (404 otherwise), with what deciding their rights needs. */
export async function visibleBase(ctx: Caller, baseId: string) {
  const prisma = await db();
  const base = await prisma.knowledgeBase.findFirst({
    where: { id: baseId, ...visibleBases(ctx) },
    include: { project: { select: { userId: true, shared: true } } },
  });
  if (!base) throw NotFound("No such knowledge base.");
  return base;
}

/** A base the caller may change: 404 when they cannot see it, 403 when they see it but may not change it. */
export async function manageableBase(ctx: Caller, baseId: string) {
  const base = await visibleBase(ctx, baseId);
  if (!canManageBase(ctx, base)) throw new AppError("Forbidden", 403, refusedMessage(base));
  return base;
}

/** A document of a base the caller may change (404 for a document of a base they cannot see, 403 as above). */
export async function manageableDocument(ctx: Caller, documentId: string) {
  const prisma = await db();
  const doc = await prisma.knowledgeDocument.findFirst({
    where: { id: documentId, base: visibleBases(ctx) },
    select: { id: true, baseId: true, sha256: true, version: true, name: true },
  });
  if (!doc) throw NotFound("No such document.");
  await manageableBase(ctx, doc.baseId);
  return doc;
}
