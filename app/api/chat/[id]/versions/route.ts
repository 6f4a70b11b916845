// POST { messageId, direction }: show the previous or next version of a message of the chat (and the
// branch below it); answers with the branch's newest messages from that version on.
import { handle, idParams } from "@/lib/http";
import { switchVersion, switchVersionSchema } from "@/lib/turn/switch-version";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const input = await readJson(req, switchVersionSchema);
  return Response.json(await switchVersion(ctx, (await idParams(params)).id, input));
});
