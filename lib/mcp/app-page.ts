// The headers of an MCP Apps view's page (GET /api/chat/[id]/app) and its error page. Their own policy
// replaces the one every API response gets (next.config.ts leaves this path out): the page runs in an
// opaque origin (CSP sandbox allow-scripts, also when opened on its own), may be framed by Parley's
// pages only, and is never cached or sniffed.
import { appContentSecurityPolicy } from "./app-meta";

export function appPageHeaders(csp: string): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "cache-control": "private, no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A refusal as a page: the message as text, and a message to the parent (the tool block) saying what
 * went wrong. A view could send the same message about itself; it can only make its own block show an error.
 */
export function appErrorPage(status: number, code: string, message: string): Response {
  const data = JSON.stringify({ type: "parley/app-error", code, message }).replace(/</g, "\\u003c");
  const html = `<!doctype html><meta charset="utf-8"><title>App unavailable</title><p>${escapeHtml(message)}</p><script>parent.postMessage(${data}, "*")</script>`;
  return new Response(html, { status, headers: appPageHeaders(appContentSecurityPolicy()) });
}
