// The browser-side signal that the chat list changed (a chat stored, named, renamed, pinned,
// archived, deleted, or a turn ended and moved it up): the sidebar reloads its list, and a chat's
// header follows a rename made from the sidebar. Also New chat clicked on the new chat page itself.
// Window events, so the parts need not share a parent.
const EVENT = "parley:chats";

export type ChatChange = { id?: string; title?: string; deleted?: boolean };

export function announceChats(change: ChatChange = {}): void {
  window.dispatchEvent(new CustomEvent<ChatChange>(EVENT, { detail: change }));
}

/** Calls `handler` on every change until the returned function is called. */
export function onChats(handler: (change: ChatChange) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<ChatChange>).detail);
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}

const NEW_CHAT = "parley:new-chat";

/** New chat, asked for while the new chat page is open: it starts afresh in place (new-chat-screen.tsx). */
export function startNewChat(): void {
  window.dispatchEvent(new Event(NEW_CHAT));
}

/** Calls `handler` on every startNewChat until the returned function is called. */
export function onNewChat(handler: () => void): () => void {
  window.addEventListener(NEW_CHAT, handler);
  return () => window.removeEventListener(NEW_CHAT, handler);
}
