// GET: the team's MCP servers with the tools the caller may use, and their tool choice for new chats.
// PUT: save that choice (the picker of a chat not created yet); foreign ids are 404 and nothing is saved.
import { handle } from "@/lib/http";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";
import { newChatTools, setNewChatTools } from "@/lib/chat/chat-tools";
import { toolSelectionSchema } from "@/lib/tools/selection";

export const GET = handle(async () => Response.json(await newChatTools(await requireTeam())));

export const PUT = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return Response.json({ selection: await setNewChatTools(ctx, await readJson(req, toolSelectionSchema)) });
});
