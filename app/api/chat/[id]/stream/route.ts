// GET: resume the running turn of a chat (a replay from its start, then live); 204 when none runs.
import { handle, idParams } from "@/lib/http";
import { resumeTurn } from "@/lib/turn/turn-follow";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const res = await resumeTurn(ctx, (await idParams(params)).id);
  return res ?? new Response(null, { status: 204 });
});
