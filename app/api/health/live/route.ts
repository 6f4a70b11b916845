import { liveness } from "@/lib/health";

export const dynamic = "force-dynamic";

/** Liveness: 200 while the process serves requests, whatever the database does (readiness is /api/health). */
export function GET() {
  return Response.json(liveness(), { headers: { "Cache-Control": "no-store" } });
}
