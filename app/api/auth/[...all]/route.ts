// better-auth's HTTP endpoints (session, sign-out, sign-in). Sign-up is refused here: accounts are
// made only by first-run setup and invite links, which call better-auth from the server. Each request
// reaches better-auth with the client's address worked out from the connection (never a header the
// client chose), for its limits and the session record.
import { getAuth } from "@/lib/auth/auth";
import { errorResponse } from "@/lib/http";
import { Forbidden } from "@/lib/errors";
import { withClientAddress } from "@/lib/security/client-address";

/**
 * The request as better-auth gets it, rebuilt from its parts: a route handler receives Next's Proxy of
 * the request, and `new Request(proxy)` reads internal state a Proxy does not have (on Node 24: a 500).
 */
function forwarded(req: Request): Request {
  const init = { method: req.method, headers: withClientAddress(req.headers), body: req.body, signal: req.signal, duplex: "half" };
  return new Request(req.url, init as RequestInit);
}

async function dispatch(req: Request): Promise<Response> {
  if (new URL(req.url).pathname.startsWith("/api/auth/sign-up")) {
    return errorResponse(Forbidden("Accounts are created through an invite link."));
  }
  try {
    const res = await (await getAuth()).handler(forwarded(req));
    // better-auth's own limiter says when to retry as X-Retry-After; browsers and clients read Retry-After.
    const retry = res.headers.get("x-retry-after");
    if (res.status === 429 && retry && !res.headers.has("retry-after")) {
      const headers = new Headers(res.headers);
      headers.set("retry-after", retry);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    return res;
  } catch (err) {
    return errorResponse(err);
  }
}

export const GET = dispatch;
export const POST = dispatch;
