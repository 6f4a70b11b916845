// The signed-in user and their teams from the session cookie in one query, for the one request whose
// start every user waits on: POST /api/chat (the time to first chunk, npm run bench). It checks what
// better-auth's getSession checks — the cookie's HMAC signature with the auth secret, then a session
// row with that token that has not expired — and reads the memberships in the same query. It never
// writes: expired rows are left to better-auth, and refreshing a session's expiry happens on the
// requests that go through better-auth (every page and every other route).
import crypto from "node:crypto";
import { db } from "../db/client";
import { membershipsQuery, toTeamSummaries, type TeamSummary } from "../teams/memberships";
import { getAuth } from "./auth";
import type { SessionUser } from "./session";

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

/** The user of a valid session cookie and their teams (oldest membership first), or null. */
export async function sessionWithTeams(headers: Headers): Promise<{ user: SessionUser; teams: TeamSummary[] } | null> {
  const { name, secret } = await cookieSetup();
  const value = cookieValue(headers.get("cookie"), name);
  const token = value && verifiedToken(value, secret);
  if (!token) return null;
  const prisma = await db();
  const session = await prisma.session.findUnique({
    where: { token },
    select: {
      expiresAt: true,
      user: {
        select: {
          id: true,
          name: true,
          email: true,
          memberships: membershipsQuery,
        },
      },
    },
  });
  if (!session || session.expiresAt < new Date()) return null;
  const { id, name: userName, email, memberships } = session.user;
  return { user: { id, name: userName, email }, teams: toTeamSummaries(memberships) };
}
