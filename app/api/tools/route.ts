// GET: the team's MCP servers and their enabled tools, for the tool picker of a chat not stored yet.
import { handle } from "@/lib/http";
import { toolServers } from "@/lib/chat/chat-tools";
import { requireTeam } from "@/lib/teams/context";

export const GET = handle(async () => Response.json({ servers: await toolServers(await requireTeam()) }));
