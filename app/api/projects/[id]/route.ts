// GET: a project with its chats the caller sees. PATCH: change it. DELETE: delete it (its chats stay).
// Who may do what: lib/projects/projects.ts.
import { handle, idParams } from "@/lib/http";
import { deleteProject, getProject, updateProject, updateProjectSchema } from "@/lib/projects/projects";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json(await getProject(ctx, (await idParams(params)).id));
});

export const PATCH = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  return Response.json(await updateProject(ctx, id, await readJson(req, updateProjectSchema)));
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await deleteProject(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
