// PATCH: rename, pin or archive a chat. DELETE: delete it with its messages.
import { handle, idParams } from "@/lib/http";
import { deleteChat, updateChat, updateChatSchema } from "@/lib/chat/chats";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

type Params = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const change = await readJson(req, updateChatSchema);
  await updateChat(ctx, (await idParams(params)).id, change);
  return Response.json({ ok: true, ...change });
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await deleteChat(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
