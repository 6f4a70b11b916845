// POST: stop the running turn of a chat on the server (the upstream request is cancelled; what
// streamed so far is kept and the message is marked stopped).
import { handle, idParams } from "@/lib/http";
import { stopTurn } from "@/lib/turn/turn-follow";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  return Response.json(await stopTurn(ctx, (await idParams(params)).id));
});
