// GET: who the chat is shared with (its owner only). POST: share it with a member or the whole team.
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { listShares, shareChat, shareSchema } from "@/lib/sharing/shares";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const GET = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  return Response.json(await listShares(ctx, (await idParams(params)).id));
});

export const POST = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const input = await readJson(req, shareSchema);
  return Response.json({ share: await shareChat(ctx, (await idParams(params)).id, input) }, { status: 201 });
});
