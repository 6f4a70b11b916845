// GET ?before=<seq>: an older page of a chat's messages (for long histories).
import { z } from "zod";
import { handle, idParams } from "@/lib/http";
import { viewableChat } from "@/lib/sharing/access";
import { loadMessagePage } from "@/lib/chat/history";
import { requireTeam } from "@/app/_server/caller";

const query = z.object({ before: z.coerce.number().int().positive().optional() });

export const GET = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const chat = await viewableChat(ctx, (await idParams(params)).id);
  const { before } = query.parse(Object.fromEntries(new URL(req.url).searchParams));
  return Response.json(await loadMessagePage(chat.id, { beforeSeq: before }));
});
