// GET: the team's audit log as CSV, filtered like the page (member, action, tool, decision, dates).
import { auditCsv, auditFilterSchema } from "@/lib/audit-log";
import { handle } from "@/lib/http";
import { requireAdmin } from "@/app/_server/caller";

export const GET = handle(async (req: Request) => {
  const ctx = await requireAdmin();
  const filter = auditFilterSchema.parse(Object.fromEntries(new URL(req.url).searchParams));
  const csv = await auditCsv(ctx.team.id, filter);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="parley-audit-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
});
