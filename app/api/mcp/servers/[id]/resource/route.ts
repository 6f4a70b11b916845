// POST: reads one resource of a team server (a resource link in a tool's result, opened by the member):
// its text (cut) or image, as an attachment would be read.
import { z } from "zod";
import { handle, idParams } from "@/lib/http";
import { readAttachments } from "@/lib/mcp-chat/mcp-catalog";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

const resourceSchema = z.object({ uri: z.string().min(1).max(2000) }).strict();

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  const { uri } = await readJson(req, resourceSchema);
  const [resource] = await readAttachments(ctx, [{ serverId: id, uri }]);
  return Response.json({ resource });
});
