// POST: one of a team server's prompts with the member's arguments, as text messages for the composer.
import { z } from "zod";
import { handle, idParams } from "@/lib/http";
import { promptMessages } from "@/lib/mcp-chat/mcp-catalog";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

const promptSchema = z.object({ name: z.string().min(1).max(200), arguments: z.record(z.string().max(200), z.string().max(10_000)).default({}) }).strict();

export const POST = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const ctx = await requireTeam();
  const { id } = await idParams(params);
  const body = await readJson(req, promptSchema);
  return Response.json(await promptMessages(ctx, id, body.name, body.arguments));
});
