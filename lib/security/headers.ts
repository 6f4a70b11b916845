// Security headers. Pages get a Content-Security-Policy with a fresh nonce per request (proxy.ts
// makes it; Next.js reads the nonce from the request's CSP header and puts it on its own scripts);
// every response gets the static headers below (next.config.ts). Scripts run only with the nonce (and
// what they load: 'strict-dynamic'); images only from this origin, data: and blob:, so a remote image
// in a model's or tool's output is not fetched (a second wall against exfiltration); no framing, except
// an MCP Apps view by the chat page (its own headers: lib/mcp/app-page.ts).

/** The page policy for one request. `dev` adds 'unsafe-eval' (React's dev tooling needs it). */
export function contentSecurityPolicy(nonce: string, opts: { dev?: boolean; https?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    // React sets style attributes and libraries insert <style>: inline styles stay allowed. CSS cannot
    // run script, and img-src/font-src keep it from loading anything remote.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self' data: blob:",
    "worker-src 'self' blob:",
    // Only this origin's frames: MCP Apps views (GET /api/chat/[id]/app, served in an opaque origin);
    // every other page of ours refuses to be framed (frame-ancestors 'none', X-Frame-Options).
    "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** For responses that are not pages (route handlers, files): nothing may run or frame them. */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** Sent with every response but an MCP Apps view's page, which Parley's chat page frames. */
export const NO_FRAMING_HEADER = { key: "X-Frame-Options", value: "DENY" };

/** Sent with every response. */
export const STATIC_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** A nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
