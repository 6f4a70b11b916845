// GET: all chats of a member of the team as JSON (admins only; for offboarding).
import { handle, idParams } from "@/lib/http";
import { exportMemberChats } from "@/lib/retention/export";
import { requireAdmin } from "@/app/_server/caller";

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ teamId: string; membershipId: string }> }) => {
  const { teamId, membershipId } = await idParams(params);
  const ctx = await requireAdmin(teamId);
  const chats = await exportMemberChats(ctx, membershipId);
  return new Response(JSON.stringify({ chats }, null, 2), {
    headers: { "content-type": "application/json; charset=utf-8", "content-disposition": `attachment; filename="member-${membershipId}-chats.json"` },
  });
});
