// GET: the live channel of the member's pages (server-sent events: the team's MCP servers, and for
// admins the calls waiting for them); lib/live/live-channel.ts says what it sends and when.
import { handle } from "@/lib/http";
import { LIVE_HEADERS, liveStream } from "@/lib/live/live-channel";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return new Response(liveStream(ctx, req.signal), { headers: LIVE_HEADERS });
});
