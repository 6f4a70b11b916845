// The page a member lands on when connecting an MCP account could not go on: the reason in plain
// words (escaped), the HTTP status of the failure, and a way back to Settings → Connections.
import { clientError } from "@/lib/errors";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function connectErrorPage(err: unknown): Response {
  const known = clientError(err);
  if (!known) console.error("[mcp-oauth] unexpected error:", err);
  const status = known?.status ?? 500;
  const message = known?.message ?? "Something went wrong on the server. Try again.";
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Could not connect · Parley</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#18181b;background:#fff}@media(prefers-color-scheme:dark){body{color:#f4f4f5;background:#09090b}a{color:#93c5fd}}a{color:#1d4ed8}</style></head>
<body><main><h1>Could not connect</h1><p role="alert">${escape(message)}</p><p><a href="/settings/connections">Back to Connections</a></p></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
