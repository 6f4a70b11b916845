// GET: the calls waiting for an admin of the caller's team (the Approvals inbox; admins only).
// POST {approvalId, approved, reason?, input?}: an admin decides one (Approve, Deny, Edit and approve).
import { handle } from "@/lib/http";
import { adminDecisionSchema, adminInbox, decideAsAdmin } from "@/lib/approvals/team-approvals";
import { continueDecided } from "@/lib/turn/continue-decided";
import { readJson } from "@/lib/security/limits";
import { requireAdmin } from "@/app/_server/caller";

export const GET = handle(async () => Response.json({ items: await adminInbox(await requireAdmin()) }));

export const POST = handle(async (req: Request) => {
  const ctx = await requireAdmin();
  const decision = await readJson(req, adminDecisionSchema, 200_000);
  const { continues } = await decideAsAdmin(ctx, decision, { continueAnswer: continueDecided });
  return Response.json({ ok: true, continues });
});
