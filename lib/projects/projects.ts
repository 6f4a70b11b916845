// Projects: folders of chats with a name, instructions (added to the system prompt of every turn of
// their chats, lib/turn/system-prompt.ts), a default model and default tools (of the chats started in
// them). Who may do what:
//
//   see       a personal project: its creator only. A shared project: everyone in its team (and its
//             chats, read-only: lib/sharing/access.ts).
//   edit      a personal project: its creator. A shared project: its creator and the team's admins
//             (others see it, 403 when they try). Rename, instructions, defaults, sharing, delete.
//   file      a member puts their own chats into their personal projects or any shared project of the
//             team, and takes them out again (lib/chat/chats.ts, PATCH /api/chat/<id> {projectId}).
//
// Anything a caller may not see is 404. Making a shared project personal again takes the other
// members' chats out of it (they could no longer see the project they are filed in). Deleting a
// project keeps its chats (the foreign key empties their projectId). Each change is an audit event.
import { z } from "zod";
import { audited } from "../audit";
import { db } from "../db/client";
import { Prisma } from "../db/generated/client";
import { AppError, Invalid, NotFound } from "../errors";
import { visibleTo } from "../providers/scope";
import { visibleChats } from "../sharing/access";
import type { TeamContext } from "../teams/team-context";
import { checkSelection, readSelection, toolSelectionSchema, type ToolSelection } from "../tools/selection";
import { idField, nameField } from "../validation";

type Caller = Pick<TeamContext, "user" | "team">;

export const MAX_PROJECT_INSTRUCTIONS = 8_000;

const fields = {
  name: nameField,
  instructions: z
    .string()
    .trim()
    .max(MAX_PROJECT_INSTRUCTIONS, `At most ${MAX_PROJECT_INSTRUCTIONS.toLocaleString("en")} characters.`),
  /** A Model row id of the team; "" or null: the member's (or team's) default. */
  defaultModelId: z.union([idField, z.literal("")]).nullable(),
  /** The tools its new chats start with; null: the member's own choice for new chats. */
  tools: toolSelectionSchema.nullable(),
  shared: z.boolean(),
};

/** POST /api/projects. */
export const createProjectSchema = z
  .object({
    ...fields,
    instructions: fields.instructions.optional(),
    defaultModelId: fields.defaultModelId.optional(),
    tools: fields.tools.optional(),
    shared: fields.shared.optional(),
  })
  .strict();
/** PATCH /api/projects/<id>: any of the fields. */
export const updateProjectSchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "Nothing to change." });
export type ProjectInput = z.infer<typeof createProjectSchema>;
export type ProjectChange = z.infer<typeof updateProjectSchema>;

export type ProjectSummary = { id: string; name: string; shared: boolean; mine: boolean; canEdit: boolean };
export type ProjectView = ProjectSummary & {
  instructions: string;
  defaultModelId: string | null;
  tools: ToolSelection | null;
  owner: string;
  chats: { id: string; title: string | null; owner: string; mine: boolean; updatedAt: string }[];
};

/** The `where` of the projects `ctx` may see: their own in the team, and the team's shared ones. */
export const visibleProjects = (ctx: Caller): Prisma.ProjectWhereInput => ({ teamId: ctx.team.id, OR: [{ userId: ctx.user.id }, { shared: true }] });

/** Whether `ctx` may change a project they see: its creator, or a team admin when it is shared. */
export const canEditProject = (ctx: Caller, p: { userId: string; shared: boolean }) => p.userId === ctx.user.id || (p.shared && ctx.team.role === "admin");

const summary = (ctx: Caller, p: { id: string; name: string; userId: string; shared: boolean }): ProjectSummary => ({
  id: p.id,
  name: p.name,
  shared: p.shared,
  mine: p.userId === ctx.user.id,
  canEdit: canEditProject(ctx, p),
});

/** The projects the caller sees, by name. */
export async function listProjects(ctx: Caller): Promise<ProjectSummary[]> {
  const prisma = await db();
  const rows = await prisma.project.findMany({
    where: visibleProjects(ctx),
    select: { id: true, name: true, userId: true, shared: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  return rows.map((p) => summary(ctx, p));
}

/** A project the caller sees, with the chats of it they see (newest first); 404 otherwise. */
export async function getProject(ctx: Caller, projectId: string): Promise<ProjectView> {
  const prisma = await db();
  const p = await prisma.project.findFirst({ where: { id: projectId, ...visibleProjects(ctx) }, include: { user: { select: { name: true } } } });
  if (!p) throw NotFound("No such project.");
  const chats = await prisma.chat.findMany({
    where: { projectId: p.id, archivedAt: null, AND: [visibleChats(ctx)] },
    select: { id: true, title: true, userId: true, updatedAt: true, user: { select: { name: true } } },
    orderBy: { updatedAt: "desc" },
    take: 200,
  });
  return {
    ...summary(ctx, p),
    instructions: p.instructions ?? "",
    defaultModelId: p.defaultModelId,
    tools: p.toolSelection === null ? null : readSelection(p.toolSelection),
    owner: p.user.name,
    chats: chats.map((c) => ({ id: c.id, title: c.title, owner: c.user.name, mine: c.userId === ctx.user.id, updatedAt: c.updatedAt.toISOString() })),
  };
}

/** The model id when it is a model the team may use (400 otherwise); null for none. */
async function teamModel(ctx: Caller, modelId: string | null | undefined): Promise<string | null> {
  if (!modelId) return null;
  const prisma = await db();
  const model = await prisma.model.findFirst({
    where: { id: modelId, enabled: true, provider: { enabled: true, ...visibleTo(ctx.team.id) } },
    select: { id: true },
  });
  if (!model) throw Invalid("Please correct the highlighted fields.", { defaultModelId: "Choose a model of this team." });
  return model.id;
}

/** The stored columns of an input (its model and tools checked against the team). */
async function columns(ctx: Caller, input: Partial<ProjectInput>): Promise<Prisma.ProjectUncheckedUpdateInput> {
  const data: Prisma.ProjectUncheckedUpdateInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.instructions !== undefined) data.instructions = input.instructions || null;
  if (input.defaultModelId !== undefined) data.defaultModelId = await teamModel(ctx, input.defaultModelId);
  if (input.tools !== undefined) data.toolSelection = input.tools === null ? Prisma.DbNull : await checkSelection(ctx.team.id, input.tools);
  if (input.shared !== undefined) data.shared = input.shared;
  return data;
}

/** Input as the route parsed it (createProjectSchema); the model and tools are checked here, against the team. */
export async function createProject(ctx: Caller, input: ProjectInput): Promise<ProjectSummary> {
  const data = await columns(ctx, input);
  const project = await audited(
    ctx,
    (tx) => tx.project.create({ data: { ...(data as Prisma.ProjectUncheckedCreateInput), name: input.name, teamId: ctx.team.id, userId: ctx.user.id } }),
    (p) => ({ action: "project.create", targetType: "project", targetId: p.id, data: { name: p.name, shared: p.shared } }),
  );
  return summary(ctx, project);
}

/** A project the caller may edit: 404 when they cannot see it, 403 when they see it but may not change it. */
async function editable(ctx: Caller, projectId: string) {
  const prisma = await db();
  const p = await prisma.project.findFirst({ where: { id: projectId, ...visibleProjects(ctx) } });
  if (!p) throw NotFound("No such project.");
  if (!canEditProject(ctx, p)) throw new AppError("Forbidden", 403, "Only the project's creator and the team's admins can change a shared project.");
  return p;
}

/** A change as the route parsed it (updateProjectSchema). */
export async function updateProject(ctx: Caller, projectId: string, change: ProjectChange): Promise<ProjectSummary> {
  const before = await editable(ctx, projectId);
  const data = await columns(ctx, change);
  const project = await audited(
    ctx,
    async (tx) => {
      // No longer shared: the others' chats leave it (they could not see the project they are filed in).
      if (before.shared && change.shared === false)
        await tx.chat.updateMany({ where: { projectId, NOT: { userId: before.userId } }, data: { projectId: null } });
      return tx.project.update({ where: { id: projectId }, data });
    },
    { action: "project.update", targetType: "project", targetId: projectId, data: { fields: Object.keys(change) } },
  );
  return summary(ctx, project);
}

export async function deleteProject(ctx: Caller, projectId: string): Promise<void> {
  await editable(ctx, projectId);
  await audited(ctx, (tx) => tx.project.delete({ where: { id: projectId } }), { action: "project.delete", targetType: "project", targetId: projectId });
}

/** What a chat of a project takes from it. */
export type ProjectDefaults = { id: string; instructions: string | null; defaultModelId: string | null; toolSelection: ToolSelection | null };

/**
 * A project the caller may file their own chats in (their personal ones, the team's shared ones),
 * with what its chats take from it; 404 for any other (another member's personal project, another team's).
 */
export async function fileableProject(ctx: Caller, projectId: string): Promise<ProjectDefaults> {
  const prisma = await db();
  const p = await prisma.project.findFirst({
    where: { id: projectId, ...visibleProjects(ctx) },
    select: { id: true, instructions: true, defaultModelId: true, toolSelection: true },
  });
  if (!p) throw NotFound("No such project.");
  return { ...p, toolSelection: p.toolSelection === null ? null : readSelection(p.toolSelection) };
}
