// DELETE: revoke a share of the caller's chat; the member loses access with their next request.
import { handle, idParams } from "@/lib/http";
import { revokeShare } from "@/lib/sharing/shares";
import { requireTeam } from "@/app/_server/caller";

export const DELETE = handle(async (_req: Request, { params }: { params: Promise<{ id: string; shareId: string }> }) => {
  const ctx = await requireTeam();
  const { id, shareId } = await idParams(params);
  await revokeShare(ctx, id, shareId);
  return Response.json({ ok: true });
});
