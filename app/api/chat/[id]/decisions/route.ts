// POST {approvals}: the member's decisions on their calls of an answer in which other calls wait for
// an admin; the answer goes on (on the server) once nothing waits any more.
import { handle, idParams } from "@/lib/http";
import { decideWhileWaiting, memberDecisionsSchema } from "@/lib/turn/continue-decided";
import { decisionRateLimit } from "@/lib/turn/request";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  const { approvals } = await readJson(req, memberDecisionsSchema, 200_000);
  await decisionRateLimit().hit(ctx.user.id);
  const { remaining, continues } = await decideWhileWaiting(ctx, id, approvals);
  return Response.json({ ok: true, remaining, continues });
});
