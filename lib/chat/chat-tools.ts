// What the chat's tool picker shows and saves: the team's MCP servers with their live status and the
// tools this member may use (lib/tools/member-tools.ts), and this chat's selection. The chat must be
// the caller's own in the current team (404 otherwise; chats.ts). Saving a chat's choice also makes it
// the member's choice for their next new chats. A draft chat's picker reads and saves that choice
// (`newChatTools`, `setNewChatTools`) and sends it with the chat's first message (turn-chat.ts).
import { getChat } from "./chats";
import type { TeamContext } from "../teams/team-context";
import { chatSelection, newChatSelection, pickerServers, rememberChoice, usable, type PickerServer } from "../tools/member-tools";
import { checkSelection, saveSelection, type ToolSelection } from "../tools/selection";

export type ChatTools = { servers: PickerServer[]; selection: ToolSelection };

export async function chatTools(ctx: TeamContext, chatId: string): Promise<ChatTools> {
  const chat = await getChat(ctx, chatId);
  const servers = await pickerServers(ctx);
  return { servers, selection: await chatSelection(ctx, chat, servers) };
}

export async function setChatTools(ctx: TeamContext, chatId: string, selection: ToolSelection): Promise<ToolSelection> {
  const chat = await getChat(ctx, chatId);
  const saved = await saveSelection(ctx.team.id, chat.id, usable(await pickerServers(ctx), await checkSelection(ctx.team.id, selection)));
  await rememberChoice(ctx, saved);
  return saved;
}

/** The picker of a chat not created yet: the member's choice for new chats. */
export async function newChatTools(ctx: TeamContext): Promise<ChatTools> {
  const servers = await pickerServers(ctx);
  return { servers, selection: await newChatSelection(ctx, servers) };
}

export async function setNewChatTools(ctx: TeamContext, selection: ToolSelection): Promise<ToolSelection> {
  const saved = usable(await pickerServers(ctx), await checkSelection(ctx.team.id, selection));
  await rememberChoice(ctx, saved);
  return saved;
}
