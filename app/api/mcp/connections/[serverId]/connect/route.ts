// GET: starts the signed-in member's OAuth connection to an MCP server of their team ("Connect" in the
// tool picker, a turn's notice and Settings → Connections are links here) and sends the browser to
// the authorization server. `returnTo`: a path of Parley to come back to afterwards.
import { idParams } from "@/lib/http";
import { startConnect } from "@/lib/identity/mcp-connect";
import { requireTeam } from "@/app/_server/caller";
import { connectErrorPage } from "../../../oauth/result-page";

type Params = { params: Promise<{ serverId: string }> };

export async function GET(req: Request, { params }: Params): Promise<Response> {
  try {
    const { serverId } = await idParams(params);
    const ctx = await requireTeam();
    const url = new URL(req.url);
    const to = await startConnect(ctx, serverId, { appUrl: url.origin, returnTo: url.searchParams.get("returnTo") ?? undefined });
    return new Response(null, { status: 303, headers: { location: to.href, "cache-control": "no-store" } });
  } catch (err) {
    return connectErrorPage(err);
  }
}
