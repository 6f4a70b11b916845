// GET: the knowledge bases the caller sees in their team (`?projectId=` for one project's). POST: create
// one — team-wide by an admin, a project's by whoever may edit the project (lib/knowledge).
import { handle } from "@/lib/http";
import { createBaseSchema, createKnowledgeBase, listKnowledgeBases } from "@/lib/knowledge/knowledge-bases";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (req: Request) => {
  const ctx = await requireTeam();
  const projectId = new URL(req.url).searchParams.get("projectId");
  return Response.json({ bases: await listKnowledgeBases(ctx, projectId ? { projectId } : {}) });
});

export const POST = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return Response.json(await createKnowledgeBase(ctx, await readJson(req, createBaseSchema)), { status: 201 });
});
