import { health } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const report = await health();
  return Response.json(report, { status: report.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
