// GET: the projects the caller sees in their current team. POST: create a project (lib/projects).
import { handle } from "@/lib/http";
import { createProject, createProjectSchema, listProjects } from "@/lib/projects/projects";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async () => Response.json({ projects: await listProjects(await requireTeam()) }));

export const POST = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return Response.json(await createProject(ctx, await readJson(req, createProjectSchema)), { status: 201 });
});
