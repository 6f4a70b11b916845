// GET: whether knowledge searches in the team's chats wait for approval ({ policy }). PUT { policy }:
// change it (admins only; lib/knowledge/search-policy.ts).
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { knowledgeSearchPolicy, searchPolicySchema, setKnowledgeSearchPolicy } from "@/lib/knowledge/search-policy";
import { requireAdmin } from "@/app/_server/caller";

type Params = { params: Promise<{ teamId: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  return Response.json({ policy: await knowledgeSearchPolicy(ctx.team.id) });
});

export const PUT = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  const { policy } = await readJson(req, searchPolicySchema);
  await setKnowledgeSearchPolicy(ctx, policy);
  return Response.json({ policy });
});
