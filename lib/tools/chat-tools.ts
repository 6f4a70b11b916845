// What the chat's tool picker shows and saves: the team's MCP servers with their live status and
// enabled tools (read-only for everyone), and this chat's selection. The chat must be the caller's
// own in the current team (404 otherwise), as everywhere in chats.
import { db } from "../db/client";
import { NotFound } from "../errors";
import { listServers, type McpServerView } from "../mcp/servers";
import type { TeamContext } from "../teams/context";
import { readSelection, saveSelection, type ToolSelection } from "./selection";

export type ChatTools = { servers: McpServerView[]; selection: ToolSelection };

async function ownChat(ctx: TeamContext, chatId: string) {
  const prisma = await db();
  const chat = await prisma.chat.findFirst({ where: { id: chatId, teamId: ctx.team.id, userId: ctx.user.id }, select: { id: true, toolSelection: true } });
  if (!chat) throw NotFound("No such chat.");
  return chat;
}

export async function chatTools(ctx: TeamContext, chatId: string): Promise<ChatTools> {
  const chat = await ownChat(ctx, chatId);
  const servers = (await listServers(ctx.team.id)).map((s) => ({ ...s, tools: s.tools.filter((t) => t.enabled) }));
  return { servers, selection: readSelection(chat.toolSelection) };
}

export async function setChatTools(ctx: TeamContext, chatId: string, selection: ToolSelection): Promise<ToolSelection> {
  const chat = await ownChat(ctx, chatId);
  return saveSelection(ctx.team.id, chat.id, selection);
}
