// What the chat's tool picker shows and saves: the team's MCP servers with their live status and
// enabled tools (read-only for everyone), and this chat's selection. The chat must be the caller's
// own in the current team (404 otherwise; chats.ts).
import { getChat } from "./chats";
import { listServers, type McpServerView } from "../mcp/servers";
import type { TeamContext } from "../teams/context";
import { readSelection, saveSelection, type ToolSelection } from "../tools/selection";

export type ChatTools = { servers: McpServerView[]; selection: ToolSelection };

export async function chatTools(ctx: TeamContext, chatId: string): Promise<ChatTools> {
  const chat = await getChat(ctx, chatId);
  const servers = (await listServers(ctx.team.id)).map((s) => ({ ...s, tools: s.tools.filter((t) => t.enabled) }));
  return { servers, selection: readSelection(chat.toolSelection) };
}

export async function setChatTools(ctx: TeamContext, chatId: string, selection: ToolSelection): Promise<ToolSelection> {
  const chat = await getChat(ctx, chatId);
  return saveSelection(ctx.team.id, chat.id, selection);
}
