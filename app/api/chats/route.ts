// GET: a page of the caller's chats in their current team (search, view, cursor, time zone: see
// lib/chat/chat-list.ts). POST: store a new, empty chat (the browser's New chat stores nothing
// until the first message; this is for API clients that set a chat's tools before it starts).
import { handle } from "@/lib/http";
import { createChat, createChatSchema } from "@/lib/chat/chats";
import { listChatPage, parseChatListQuery } from "@/lib/chat/chat-list";
import { readJson } from "@/lib/security/limits";
import { requireTeam } from "@/app/_server/caller";

export const GET = handle(async (req: Request) => {
  const ctx = await requireTeam();
  return Response.json(await listChatPage(ctx, parseChatListQuery(new URL(req.url).searchParams)));
});

export const POST = handle(async (req: Request) => {
  const ctx = await requireTeam();
  // An optional body: `{ projectId }` starts the chat in a project, with its defaults.
  const body = req.headers.get("content-type") ? await readJson(req, createChatSchema.optional()) : undefined;
  return Response.json(await createChat(ctx, body ?? {}), { status: 201 });
});
