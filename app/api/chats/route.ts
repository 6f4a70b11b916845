// GET: the caller's chats in their current team, newest first. POST: start a new chat.
import { handle } from "@/lib/http";
import { createChat, listChats } from "@/lib/chat/chats";
import { requireTeam } from "@/lib/teams/context";

export const GET = handle(async () => Response.json({ chats: await listChats(await requireTeam()) }));

export const POST = handle(async () => Response.json(await createChat(await requireTeam()), { status: 201 }));
