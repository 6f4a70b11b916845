// GET: the team's members (admins only).
import { handle, idParams } from "@/lib/http";
import { requireAdmin } from "@/app/_server/caller";
import { listMembers } from "@/lib/teams/members";

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ teamId: string }> }) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  return Response.json({ members: await listMembers(ctx.team.id) });
});
