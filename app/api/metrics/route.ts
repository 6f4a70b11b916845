// GET: Prometheus metrics of this process (lib/observability/scrape.ts), for a bearer METRICS_TOKEN.
import { handle } from "@/lib/http";
import { scrapeMetrics } from "@/lib/observability/scrape";

export const dynamic = "force-dynamic";

export const GET = handle(async (req: Request) => {
  const { body, contentType } = await scrapeMetrics(req.headers.get("authorization"));
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
});
