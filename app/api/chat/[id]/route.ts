// PATCH: rename a chat. DELETE: delete it with its messages.
import { handle, idParams } from "@/lib/http";
import { deleteChat, renameChat, renameChatSchema } from "@/lib/chat/chats";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/lib/teams/context";

type Params = { params: Promise<{ id: string }> };

export const PATCH = handle(async (req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  const { title } = await readJson(req, renameChatSchema);
  await renameChat(ctx, (await idParams(params)).id, title);
  return Response.json({ ok: true, title });
});

export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const ctx = await requireTeam();
  await deleteChat(ctx, (await idParams(params)).id);
  return Response.json({ ok: true });
});
