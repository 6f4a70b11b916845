// GET: a period's usage as CSV — the team's for an admin, or `?mine=1` one's own for any member.
import { handle } from "@/lib/http";
import { requireAdmin, requireTeamFromSessionCookie } from "@/app/_server/caller";
import { parsePeriod, usageCsv, usageReport } from "@/lib/usage/report";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const q = new URL(req.url).searchParams;
  const mine = q.get("mine") === "1";
  const ctx = mine ? await requireTeamFromSessionCookie() : await requireAdmin();
  const period = parsePeriod({ from: q.get("from") ?? undefined, to: q.get("to") ?? undefined });
  const csv = usageCsv(await usageReport(ctx.team.id, period, mine ? ctx.user.id : undefined));
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="parley-usage-${period.from}-to-${period.to}.csv"`,
      "cache-control": "no-store",
    },
  });
});
