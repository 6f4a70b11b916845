// Following and stopping a running turn from anywhere: the live stream of a chat's turn, replayed from
// its start (a reload, a second tab, a member the chat is shared with), and Stop, which reaches the
// turn on whichever instance runs it (stream-registry.ts).
import type { TeamContext } from "../teams/team-context";
import { viewableChat } from "../sharing/access";
import { getChat } from "../chat/chats";
import { sseBytes, STREAM_HEADERS } from "../messages/sse-bytes";
import { streamRegistry } from "./stream-registry";

/** Stops the running turn of a chat, on whichever instance runs it. */
export async function stopTurn(ctx: TeamContext, chatId: string): Promise<{ stopped: boolean }> {
  const chat = await getChat(ctx, chatId);
  const registry = await streamRegistry();
  if (!chat.activeStreamId && !registry.local.has(chat.id)) return { stopped: false };
  const local = registry.local.get(chat.id);
  if (local) local.abort();
  else await registry.publishStop(chat.id);
  return { stopped: true };
}

/** The live stream of a chat's running turn, replayed from its start; null when none is running. */
export async function resumeTurn(ctx: TeamContext, chatId: string): Promise<Response | null> {
  // Everyone who may see the chat follows it live (lib/sharing/access.ts), not only its owner.
  const chat = await viewableChat(ctx, chatId);
  if (!chat.activeStreamId) return null;
  const registry = await streamRegistry();
  const stream = await registry.streams.resumeExistingStream(chat.activeStreamId);
  if (!stream) return null;
  return new Response(sseBytes(stream), { headers: STREAM_HEADERS });
}
