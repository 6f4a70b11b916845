// A member's access token that the MCP server refuses (401) is renewed by the member's provider
// (oauth-provider.ts: one refresh for every call refused with the same token) and the request is
// sent once more with the new token, before the SDK's transport sees the refusal. Left to the
// transport, each refused call would refresh on its own with the same refresh token: the
// authorization server rotates refresh tokens and revokes the whole grant when a spent one comes
// back, so two calls at the same moment would log the member out. A refusal that renewing does
// not help reaches the transport as it came (its own auth() then asks the member to connect).
import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import type { FetchLike } from "@modelcontextprotocol/client";
import type { StoredOAuthProvider } from "./oauth-provider";

type Renewing = Pick<StoredOAuthProvider, "renewRefused">;

export function renewingRefusedTokens(base: FetchLike, authProvider: OAuthClientProvider | undefined): FetchLike {
  // By its method, not its class: Next may load this module and the provider's in different bundles.
  const provider = authProvider as (OAuthClientProvider & Partial<Renewing>) | undefined;
  const renew = typeof provider?.renewRefused === "function" ? provider.renewRefused.bind(provider) : undefined;
  if (!renew) return base;
  return async (url, init) => {
    const res = await base(url, init);
    if (res.status !== 401) return res;
    const headers = new Headers(init?.headers);
    const sent = /^Bearer\s+(\S+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    if (!sent) return res;
    const fresh = await renew(sent);
    if (!fresh) return res;
    await res.body?.cancel().catch(() => {});
    headers.set("authorization", `Bearer ${fresh}`);
    return base(url, { ...init, headers });
  };
}
