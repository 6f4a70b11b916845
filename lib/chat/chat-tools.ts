// What the chat's tool picker shows and saves: the team's MCP servers with their live status and
// enabled tools (read-only for everyone), and this chat's selection. The chat must be the caller's
// own in the current team (404 otherwise; chats.ts). A draft chat's picker reads the servers alone
// (`toolServers`) and sends its choice with the chat's first message (turn-load.ts).
import { getChat } from "./chats";
import { listServers, type McpServerView } from "../mcp/servers";
import type { TeamContext } from "../teams/context";
import { readSelection, saveSelection, type ToolSelection } from "../tools/selection";

export type ChatTools = { servers: McpServerView[]; selection: ToolSelection };

export async function chatTools(ctx: TeamContext, chatId: string): Promise<ChatTools> {
  const chat = await getChat(ctx, chatId);
  return { servers: await toolServers(ctx), selection: readSelection(chat.toolSelection) };
}

/** The team's MCP servers with their live status and enabled tools, as the picker shows them. */
export async function toolServers(ctx: TeamContext): Promise<McpServerView[]> {
  return (await listServers(ctx.team.id)).map((s) => ({ ...s, tools: s.tools.filter((t) => t.enabled) }));
}

export async function setChatTools(ctx: TeamContext, chatId: string, selection: ToolSelection): Promise<ToolSelection> {
  const chat = await getChat(ctx, chatId);
  return saveSelection(ctx.team.id, chat.id, selection);
}
