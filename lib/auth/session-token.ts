// The session cookie checked without better-auth's request handling, for the one request whose start
// every user waits on: POST /api/chat (the time to first chunk, npm run bench). It checks what
// better-auth's getSession checks of the cookie — its HMAC signature with the auth secret — and gives
// the token; lib/teams/session-teams.ts (and, beside the chat it names, lib/turn/turn-input.ts) then
// reads the session row, its user and their memberships in one query. Nothing here writes: expired rows are left to better-auth, and refreshing a session's
// expiry happens on the requests that go through better-auth (every page and every other route).
import crypto from "node:crypto";
import { getAuth } from "./auth";

/** The session cookie's name and signing secret, as better-auth set them up. */
async function cookieSetup(): Promise<{ name: string; secret: string }> {
  const context = await (await getAuth()).$context;
  return { name: context.authCookies.sessionToken.name, secret: context.secret };
}

/**
 * The value of one cookie of a Cookie header, decoded. The first of a name counts, as in better-auth's
 * getSession (better-call); better-auth's exported parseCookies and Next's cookies() keep the last.
 */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return undefined;
}

/** The session token of a signed cookie value (`token.signature`), or undefined when the signature is not the secret's. */
export function verifiedToken(value: string, secret: string): string | undefined {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return undefined;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  // HMAC-SHA256 in standard base64 with its padding: 44 characters.
  if (signature.length !== 44 || !signature.endsWith("=")) return undefined;
  const expected = crypto.createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? token : undefined;
}

/**
 * The session token of the request's session cookie when its signature is the auth secret's, else
 * undefined. Whether a session with that token exists and has not expired is for the caller's query
 * (lib/teams reads the session, its user and their memberships in one).
 */
export async function signedSessionToken(headers: Headers): Promise<string | undefined> {
  const { name, secret } = await cookieSetup();
  const value = cookieValue(headers.get("cookie"), name);
  return (value && verifiedToken(value, secret)) || undefined;
}
