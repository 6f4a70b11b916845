// The outbound fetch (undici's, for its address rules) answers with undici's own Response class, and
// the MCP SDK's OAuth code reads an error answer only when it is the global `Response`
// (`parseErrorResponse`: `input instanceof Response`). Without this, the authorization server's
// `invalid_grant` for a refused refresh reads as an unknown server error, so the SDK never drops the
// dead tokens nor re-registers a refused client. This hands the SDK the global class, same body.
import type { FetchLike } from "@modelcontextprotocol/client";

export function standardResponses(base: FetchLike): FetchLike {
  return async (url, init) => {
    // Typed as the global Response, which is what this checks.
    const res: Pick<Response, "body" | "status" | "statusText" | "headers" | "url" | "redirected"> = await base(url, init);
    if (res instanceof Response) return res;
    const copy = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    // `url` and `redirected` are read-only on a constructed Response; the SDK reads `url` for redirects.
    Object.defineProperty(copy, "url", { value: res.url });
    Object.defineProperty(copy, "redirected", { value: res.redirected });
    return copy;
  };
}
