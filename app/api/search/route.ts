// GET ?q=: full-text search over the caller's chats and those shared with them (lib/search/search.ts).
import { handle } from "@/lib/http";
import { searchChats } from "@/lib/search/search";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return Response.json({ results: await searchChats(ctx, new URL(req.url).searchParams.get("q") ?? "") });
});
