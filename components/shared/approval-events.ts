// The browser-side signal that the admins' inbox decided a call: the sidebar's Approvals link counts
// again at once. A window event, so the two need not share a parent.
const EVENT = "parley:approvals-changed";

export function announceApprovalsDecided(): void {
  window.dispatchEvent(new Event(EVENT));
}

/** Calls `handler` on every decision until the returned function is called. */
export function onApprovalsDecided(handler: () => void): () => void {
  window.addEventListener(EVENT, handler);
  return () => window.removeEventListener(EVENT, handler);
}
