// POST: continue a chat shared with the caller as "can continue", in a copy of their own.
import { handle, idParams } from "@/lib/http";
import { copyChat } from "@/lib/sharing/copy";
import { requireTeam } from "@/app/_server/caller";

export const POST = handle(async (_req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  return Response.json(await copyChat(ctx, (await idParams(params)).id), { status: 201 });
});
