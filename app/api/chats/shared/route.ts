// GET: the chats shared with the caller in their current team ("Shared with me" in the sidebar).
import { handle } from "@/lib/http";
import { listSharedWithMe } from "@/lib/sharing/shares";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async () => {
  const ctx = await requireTeam();
  return Response.json({ chats: await listSharedWithMe(ctx) });
});
