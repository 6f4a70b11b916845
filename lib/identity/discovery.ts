// OpenID Connect discovery of an issuer, for "Test discovery" and before each (re)build of the
// sign-in provider: fetches `<issuer>/.well-known/openid-configuration` through the outbound guard
// (lib/security/outbound-fetch.ts) with a timeout, and checks what sign-in needs (the issuer it
// names is the one configured, endpoints, keys, the code flow with PKCE). The endpoints Parley itself
// calls (token, keys, userinfo) pass the address policy for provider URLs (lib/security), and the
// token endpoint, which receives the client secret, must be on the issuer's own origin or on the one
// origin the admin confirmed. Every failure is a 4xx AppError whose message says what is wrong.
import { config } from "../config";
import { AppError } from "../errors";
import { judgeUrl } from "../security/address-policy";
import { checkTarget, outboundFetch } from "../security/outbound-fetch";

export const DISCOVERY_TIMEOUT_MS = 8_000;
const MAX_DOCUMENT_BYTES = 256_000;

export type DiscoveredIssuer = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string | null;
  jwksUri: string;
  scopesSupported: string[];
  claimsSupported: string[];
  /** The ID token signing algorithms offered (empty: the JOSE default check). */
  signingAlgorithms: string[];
  /** How Parley authenticates at the token endpoint: basic (the OpenID default) unless only post is offered. */
  tokenEndpointAuth: "basic" | "post";
};

const unusable = (message: string) => new AppError("DiscoveryFailed", 422, message, { issuer: message });
const unreachable = (message: string) => new AppError("ProviderUnreachable", 422, message, { issuer: message });

/** The issuer as admins type it, without a trailing slash (issuers compare as exact strings otherwise). */
export function normaliseIssuer(issuer: string): string {
  return issuer.trim().replace(/\/+$/, "");
}

export function discoveryUrl(issuer: string): string {
  return `${normaliseIssuer(issuer)}/.well-known/openid-configuration`;
}

export type DiscoveryOptions = {
  /** Another origin the admin confirmed for the token endpoint (it receives the client secret). */
  tokenOrigin?: string | null;
  fetcher?: typeof fetch;
};

/** An origin as admins type it (scheme://host[:port]), or null when it is not one. */
export function originOf(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function httpUrl(doc: Record<string, unknown>, key: string, required: boolean): string | null {
  const value = doc[key];
  if (value === undefined && !required) return null;
  try {
    const url = new URL(String(value));
    if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  } catch {}
  throw unusable(`The discovery document has no usable ${key}.`);
}

async function fetchDocument(url: string, fetcher: typeof fetch): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetcher(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
  } catch (err) {
    const e = err as Error & { cause?: Error & { code?: string } };
    if (e.name === "TimeoutError") throw unreachable(`The provider did not answer within ${DISCOVERY_TIMEOUT_MS / 1000} s (${url}).`);
    if (e.cause?.name === "OutboundRefused") throw unusable(e.cause.message);
    const detail = e.cause?.code ?? e.cause?.message ?? e.message;
    throw unreachable(`The provider cannot be reached at ${url} (${detail}). Check the issuer URL and that the provider is up.`);
  }
  if (res.status === 404) throw unusable(`No discovery document at ${url} (404). Is this the issuer URL of an OpenID provider?`);
  if (!res.ok) throw unreachable(`The provider answered ${res.status} for ${url}.`);
  const text = await res.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw unusable("The discovery document is too large.");
  try {
    const doc = JSON.parse(text) as unknown;
    if (doc && typeof doc === "object" && !Array.isArray(doc)) return doc as Record<string, unknown>;
  } catch {}
  throw unusable(`${url} did not return a JSON discovery document.`);
}

/** An endpoint Parley calls itself: refused when the address policy refuses its host, typed or resolved. */
async function checkEndpoint(key: string, url: string): Promise<void> {
  const typed = judgeUrl(url, config().PARLEY_ALLOW_PRIVATE_URLS);
  if (!typed.ok) throw unusable(`The discovery document's ${key} (${url}) is refused: ${typed.reason}`);
  try {
    await checkTarget(url);
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === "OutboundRefused") throw unusable(`The discovery document's ${key} (${url}) is refused: ${e.message}`);
    throw unreachable(`The discovery document's ${key} (${url}) cannot be reached (${e.code ?? e.message}).`);
  }
}

/** The token endpoint gets the client secret: only on the issuer's origin or the one the admin confirmed. */
function checkTokenOrigin(issuer: string, tokenEndpoint: string, confirmed: string | null | undefined) {
  const origin = new URL(tokenEndpoint).origin;
  if (origin === new URL(issuer).origin || (confirmed && originOf(confirmed) === origin)) return;
  throw new AppError(
    "DiscoveryFailed",
    422,
    `The token endpoint (${tokenEndpoint}) is on another server (${origin}) than the issuer, and Parley sends the client secret there. If that server belongs to your provider, enter ${origin} as the token endpoint's server.`,
    {
      tokenOrigin: `Enter ${origin} to confirm this server, if it belongs to your provider.`,
    },
  );
}

/** Fetches and checks the issuer's discovery document; throws a 4xx AppError saying what is wrong. */
export async function discoverIssuer(issuer: string, options: DiscoveryOptions = {}): Promise<DiscoveredIssuer> {
  const fetcher = options.fetcher ?? outboundFetch();
  const expected = normaliseIssuer(issuer);
  const doc = await fetchDocument(discoveryUrl(expected), fetcher);
  const named = typeof doc.issuer === "string" ? doc.issuer : "";
  if (normaliseIssuer(named) !== expected) {
    throw unusable(
      `Issuer mismatch: the document at this URL names the issuer "${named || "(none)"}", not "${expected}". Use the issuer URL the provider names.`,
    );
  }
  const responseTypes = strings(doc.response_types_supported);
  if (responseTypes.length && !responseTypes.includes("code")) throw unusable("The provider does not offer the authorization code flow.");
  const challenge = strings(doc.code_challenge_methods_supported);
  if (challenge.length && !challenge.includes("S256")) throw unusable("The provider does not support PKCE with S256.");
  const authMethods = strings(doc.token_endpoint_auth_methods_supported);
  const tokenEndpoint = httpUrl(doc, "token_endpoint", true)!;
  const userinfoEndpoint = httpUrl(doc, "userinfo_endpoint", false);
  const jwksUri = httpUrl(doc, "jwks_uri", true)!;
  await checkEndpoint("token_endpoint", tokenEndpoint);
  await checkEndpoint("jwks_uri", jwksUri);
  if (userinfoEndpoint) await checkEndpoint("userinfo_endpoint", userinfoEndpoint);
  checkTokenOrigin(expected, tokenEndpoint, options.tokenOrigin);
  return {
    issuer: named,
    authorizationEndpoint: httpUrl(doc, "authorization_endpoint", true)!,
    tokenEndpoint,
    userinfoEndpoint,
    jwksUri,
    scopesSupported: strings(doc.scopes_supported),
    claimsSupported: strings(doc.claims_supported),
    signingAlgorithms: strings(doc.id_token_signing_alg_values_supported),
    tokenEndpointAuth: authMethods.length && !authMethods.includes("client_secret_basic") && authMethods.includes("client_secret_post") ? "post" : "basic",
  };
}
