// GET: how long the team keeps chats (days, or null for ever). PUT { days }: change it (admins only).
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { retentionOf, retentionSchema, setRetention } from "@/lib/retention/retention";
import { requireAdmin } from "@/app/_server/caller";

type Params = { params: Promise<{ teamId: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  return Response.json({ days: await retentionOf(ctx.team.id) });
});

export const PUT = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireAdmin((await idParams(params)).teamId);
  const { days } = await readJson(req, retentionSchema);
  await setRetention(ctx, days);
  return Response.json({ days });
});
