// GET: how many calls wait for an admin of the caller's team (the sidebar badge polls it; admins only).
import { handle } from "@/lib/http";
import { countPendingApprovals } from "@/lib/approvals/team-approvals";
import { requireAdmin } from "@/app/_server/caller";

export const GET = handle(async () => {
  const ctx = await requireAdmin();
  return Response.json({ count: await countPendingApprovals(ctx.team.id) }, { headers: { "cache-control": "no-store" } });
});
