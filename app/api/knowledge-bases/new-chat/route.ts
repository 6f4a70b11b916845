// GET: the knowledge bases a chat not created yet may search (`?projectId=` of the project it starts in),
// for its picker; the choice goes with the chat's first message (POST /api/chat, `knowledge`).
import { handle } from "@/lib/http";
import { requireTeam } from "@/app/_server/caller";
import { newChatKnowledge } from "@/lib/chat/chat-knowledge";
import { idField } from "@/lib/validation";
import { Invalid } from "@/lib/errors";

export const GET = handle(async (req: Request) => {
  const ctx = await requireTeam();
  const asked = new URL(req.url).searchParams.get("projectId");
  const projectId = asked === null ? undefined : idField.safeParse(asked);
  if (projectId && !projectId.success) throw Invalid("No such project.");
  return Response.json(await newChatKnowledge(ctx, projectId?.data));
});
