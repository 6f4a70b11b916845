// OpenID Connect discovery of an issuer, for "Test discovery" and before each (re)build of the
// sign-in provider: fetches `<issuer>/.well-known/openid-configuration` through the outbound guard
// (lib/security/outbound-fetch.ts) with a timeout, and checks what sign-in needs (the issuer it
// names is the one configured, endpoints, keys, the code flow with PKCE). Every failure is a 4xx
// AppError whose message says what is wrong, so an admin can fix it.
import { AppError } from "../errors";
import { outboundFetch } from "../security/outbound-fetch";

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

/** Fetches and checks the issuer's discovery document; throws a 4xx AppError saying what is wrong. */
export async function discoverIssuer(issuer: string, fetcher: typeof fetch = outboundFetch()): Promise<DiscoveredIssuer> {
  const expected = normaliseIssuer(issuer);
  const doc = await fetchDocument(discoveryUrl(expected), fetcher);
  const named = typeof doc.issuer === "string" ? doc.issuer : "";
  if (normaliseIssuer(named) !== expected) {
    throw unusable(`Issuer mismatch: the document at this URL names the issuer "${named || "(none)"}", not "${expected}". Use the issuer URL the provider names.`);
  }
  const responseTypes = strings(doc.response_types_supported);
  if (responseTypes.length && !responseTypes.includes("code")) throw unusable("The provider does not offer the authorization code flow.");
  const challenge = strings(doc.code_challenge_methods_supported);
  if (challenge.length && !challenge.includes("S256")) throw unusable("The provider does not support PKCE with S256.");
  const authMethods = strings(doc.token_endpoint_auth_methods_supported);
  return {
    issuer: named,
    authorizationEndpoint: httpUrl(doc, "authorization_endpoint", true)!,
    tokenEndpoint: httpUrl(doc, "token_endpoint", true)!,
    userinfoEndpoint: httpUrl(doc, "userinfo_endpoint", false),
    jwksUri: httpUrl(doc, "jwks_uri", true)!,
    scopesSupported: strings(doc.scopes_supported),
    claimsSupported: strings(doc.claims_supported),
    tokenEndpointAuth: authMethods.length && !authMethods.includes("client_secret_basic") && authMethods.includes("client_secret_post") ? "post" : "basic",
  };
}
