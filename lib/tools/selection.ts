// A chat's tool selection (Chat.toolSelection): which of the team's MCP servers are active in the
// chat, and which of their tools. Ids only; anything not of the chat's team is dropped when saved
// (404) and ignored when read, so a forged id can never reach another team's server.
import { z } from "zod";
import { db } from "../db/client";
import { NotFound } from "../errors";

export type ToolSelection = { servers: string[]; tools: string[] };

const id = z.string().min(1).max(64);
export const toolSelectionSchema = z.object({ servers: z.array(id).max(100), tools: z.array(id).max(2000) });

export function readSelection(value: unknown): ToolSelection {
  const parsed = toolSelectionSchema.safeParse(value);
  return parsed.success ? parsed.data : { servers: [], tools: [] };
}

/** Saves the selection of a chat (the caller has checked the chat is theirs). 404 for foreign ids. */
export async function saveSelection(teamId: string, chatId: string, selection: ToolSelection): Promise<ToolSelection> {
  const clean = await checkSelection(teamId, selection);
  const prisma = await db();
  await prisma.chat.update({ where: { id: chatId }, data: { toolSelection: clean } });
  return clean;
}

/** The selection without repeats when every id is of the team's servers and tools; 404 otherwise. */
export async function checkSelection(teamId: string, selection: ToolSelection): Promise<ToolSelection> {
  const prisma = await db();
  const servers = [...new Set(selection.servers)];
  const tools = [...new Set(selection.tools)];
  const [ownServers, ownTools] = await Promise.all([
    prisma.mcpServer.count({ where: { teamId, id: { in: servers } } }),
    prisma.mcpTool.count({ where: { id: { in: tools }, server: { teamId } } }),
  ]);
  if (ownServers !== servers.length || ownTools !== tools.length) throw NotFound("No such MCP server or tool in this team.");
  return { servers, tools };
}
