// Where focus goes after an action in a chat: back to the message box (its id is "composer"), so a
// keyboard user can type on after New chat, Send, Approve, Deny, Stop or closing a popover.
export const COMPOSER_ID = "composer";

export function focusComposer(): void {
  // After React has rendered the change that caused it (a button that disappeared, a closed popover).
  requestAnimationFrame(() => document.getElementById(COMPOSER_ID)?.focus());
}
