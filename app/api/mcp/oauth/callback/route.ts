// GET: where an authorization server sends a member back after they connected an MCP account. The
// flow must have been started by this member (their session) and is taken once; success returns
// them where they started, anything else shows why and stores nothing.
import { requireUser } from "@/app/_server/caller";
import { finishConnect, safeReturnTo } from "@/lib/identity/mcp-connect";
import { connectErrorPage } from "../result-page";

export async function GET(req: Request): Promise<Response> {
  try {
    const user = await requireUser();
    const q = new URL(req.url).searchParams;
    const done = await finishConnect(user.id, q.get("state"), {
      code: q.get("code"),
      iss: q.get("iss"),
      error: q.get("error"),
      errorDescription: q.get("error_description"),
    });
    const back = new URL(safeReturnTo(done.returnTo), req.url);
    back.searchParams.set("connected", done.serverName);
    return new Response(null, { status: 303, headers: { location: `${back.pathname}${back.search}`, "cache-control": "no-store" } });
  } catch (err) {
    return connectErrorPage(err);
  }
}
