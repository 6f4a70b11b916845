// The single sign-on provider better-auth signs people in with, built from Parley's own checked
// discovery (discovery.ts: endpoints under the address policy, the token endpoint on the issuer's
// origin or the one the admin confirmed) and never from a second fetch of the document. better-auth's
// generic OAuth plugin makes the authorization URL (PKCE, state, nonce) and maps the profile; every
// request the server makes to the provider (the token exchange carrying the client secret, userinfo,
// the key set that verifies ID tokens) goes through the outbound fetch, which applies the address
// policy at connect time and follows no redirect to another server.
import { authorizationCodeRequest, getOAuth2Tokens, parseStringBoolean, type OAuth2Tokens } from "better-auth/oauth2";
import { genericOAuth, type GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { createRemoteJWKSet, customFetch, decodeJwt } from "jose";
import type { DiscoveredIssuer } from "./discovery";
import type { SsoSettings } from "./sso-provider";

const REQUEST_TIMEOUT_MS = 10_000;

type Profile = GenericOAuthUserInfo & { sub?: string; email?: string; email_verified?: unknown };

async function json(res: Response, what: string): Promise<Record<string, unknown>> {
  const body = (await res.json().catch(() => null)) as unknown;
  if (!res.ok || !body || typeof body !== "object") throw new Error(`The provider's ${what} answered ${res.status}.`);
  return body as Record<string, unknown>;
}

/**
 * The generic OAuth plugin configured for this provider, and how to finish the provider object it
 * builds: its expected issuer and ID-token verification against the discovered keys.
 */
export function ssoClient(
  providerId: string,
  settings: SsoSettings,
  discovered: DiscoveredIssuer,
  fetcher: typeof fetch,
  mapProfile: (profile: Profile) => void,
) {
  const credentials = { clientId: settings.clientId, clientSecret: settings.clientSecret };
  const auth = settings.clientSecret ? { authentication: discovered.tokenEndpointAuth } : { tokenEndpointAuth: { method: "none" as const } };

  async function getToken({ code, codeVerifier, redirectURI }: { code: string; codeVerifier?: string; redirectURI: string }): Promise<OAuth2Tokens> {
    const { body, headers } = await authorizationCodeRequest({
      code,
      codeVerifier,
      redirectURI,
      options: credentials,
      tokenEndpoint: discovered.tokenEndpoint,
      ...auth,
    });
    const res = await fetcher(discovered.tokenEndpoint, { method: "POST", body, headers, redirect: "manual", signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return getOAuth2Tokens(await json(res, "token endpoint"));
  }

  /** The ID token's claims when they name the person (verified by better-auth before this), else userinfo. */
  async function getUserInfo(tokens: OAuth2Tokens): Promise<Profile | null> {
    const claims = tokens.idToken ? (decodeJwt(tokens.idToken) as Profile) : null;
    let profile: Profile | null = claims?.sub && claims.email ? claims : null;
    if (!profile && discovered.userinfoEndpoint && tokens.accessToken) {
      const res = await fetcher(discovered.userinfoEndpoint, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, accept: "application/json" },
        redirect: "manual",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      profile = (await json(res, "userinfo endpoint")) as Profile;
    }
    if (!profile?.sub) return null;
    return { ...profile, id: String(profile.sub), emailVerified: parseStringBoolean(profile.email_verified) ?? false };
  }

  const plugin = genericOAuth({
    config: [
      {
        providerId,
        name: settings.name,
        authorizationUrl: discovered.authorizationEndpoint,
        tokenUrl: discovered.tokenEndpoint,
        userInfoUrl: discovered.userinfoEndpoint ?? undefined,
        ...credentials,
        ...auth,
        scopes: settings.scopes,
        pkce: true,
        getToken,
        getUserInfo,
        accountSubject: ({ profile }) => String((profile as Profile).sub ?? ""),
        mapProfileToUser(profile) {
          mapProfile(profile as Profile);
          return {};
        },
      },
    ],
  });

  /** Sets what the plugin takes from discovery only when it fetches the document itself. */
  function finish(provider: { issuer?: string; idToken?: unknown; requiresIdTokenNonce?: boolean }) {
    const jwks = createRemoteJWKSet(new URL(discovered.jwksUri), {
      [customFetch]: (url: string, options: RequestInit) => fetcher(url, { ...options, redirect: "manual" }),
    });
    provider.issuer = discovered.issuer;
    provider.idToken = {
      jwks,
      issuer: discovered.issuer,
      audience: settings.clientId,
      algorithms: discovered.signingAlgorithms.length ? discovered.signingAlgorithms : undefined,
    };
    provider.requiresIdTokenNonce = true;
  }

  return { plugin, finish };
}
