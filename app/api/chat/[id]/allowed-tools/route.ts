// POST {toolId}: "Allow for this chat" — a tool that asks runs without asking in this chat of the caller's.
import { z } from "zod";
import { handle, idParams } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { allowForChat } from "@/lib/tools/preferences";

const schema = z.object({ toolId: z.string().min(1).max(64) }).strict();

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  const { toolId } = await readJson(req, schema);
  await allowForChat(ctx, id, toolId);
  return Response.json({ ok: true });
});
