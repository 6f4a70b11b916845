// GET ?call=<tool call id>: the MCP Apps view of a tool call in this chat, for the iframe in its tool
// block. The page carries its own policy (sandbox allow-scripts: an opaque origin; framed only by
// Parley). A refusal is a small page of the same kind with the status, which tells the block what went
// wrong (a message to the parent) so the block shows the error instead of an empty frame.
import { z } from "zod";
import { appPage } from "@/lib/mcp-chat/mcp-apps";
import { errorResponse, idParams } from "@/lib/http";
import { Invalid } from "@/lib/errors";
import { appPageHeaders, appErrorPage } from "@/lib/mcp/app-page";
import { requireTeam } from "@/app/_server/caller";

const callField = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/);

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const ctx = await requireTeam();
    const { id } = await idParams(params);
    const call = callField.safeParse(new URL(req.url).searchParams.get("call"));
    if (!call.success) throw Invalid("Name the tool call (call=…).");
    const page = await appPage(ctx, id, call.data);
    return new Response(page.html, { status: 200, headers: appPageHeaders(page.csp) });
  } catch (err) {
    const res = errorResponse(err);
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    return appErrorPage(res.status, body.error?.code ?? "Error", body.error?.message ?? "The app could not be shown.");
  }
}
