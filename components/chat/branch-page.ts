// The newest messages of a chat's branch as the server has them, put in place of what the list shows
// from the first of them on (after a turn, the stored versions and ids replace the live ones; after a
// version switch, the other branch replaces the one that was shown). Messages that did not change keep
// their objects, so the list does not render them again. Also the request for a page of the branch
// (GET /api/chat/<id>/messages: the newest, or the one before the messages shown).
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { fetchJson } from "../shared/fetch-json";

export type BranchPage = { messages: ParleyUIMessage[]; hasMore: boolean; firstSeq?: number };

/** The list with `page` in place; `older` is set when the page replaced the whole list (its paging state). */
export function withNewestPage(shown: ParleyUIMessage[], page: BranchPage): { messages: ParleyUIMessage[]; older?: { hasMore: boolean; firstSeq?: number } } {
  const at = page.messages.length ? shown.findIndex((m) => m.id === page.messages[0].id) : -1;
  if (at < 0) return { messages: page.messages, older: { hasMore: page.hasMore, firstSeq: page.firstSeq } };
  const byId = new Map(shown.slice(at).map((m) => [m.id, m]));
  const same = (a: ParleyUIMessage | undefined, b: ParleyUIMessage) => !!a && JSON.stringify([a.parts, a.metadata]) === JSON.stringify([b.parts, b.metadata]);
  return { messages: [...shown.slice(0, at), ...page.messages.map((m) => (same(byId.get(m.id), m) ? byId.get(m.id)! : m))] };
}

/** The newest page of the chat's branch, or older messages (`before` a seq); undefined when the server did not answer. */
export function fetchBranchPage(chatId: string, before?: number): Promise<BranchPage | undefined> {
  return fetchJson<BranchPage>(`/api/chat/${chatId}/messages${before ? `?before=${before}` : ""}`).catch(() => undefined);
}
