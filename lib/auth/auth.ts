// The better-auth instance (email and password, and single sign-on through lib/identity). Its signing secret is derived from the master key, so
// it is built once start-up has opened the keyring: lib/startup.ts builds it at boot (a bad setting
// stops start-up) and forgets it on shutdown; asked for before start-up, authSecret() says so. Sign-up
// is only reachable from server code (first-admin setup and invites); app/api/auth refuses it over HTTP.
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { db } from "../db/client";
import { publicUrl } from "../config";
import { processOnce } from "../process-once";
import { CLIENT_HEADER } from "../security/client-address";
import { authSecret } from "../security/keyring";
import { authRateLimit } from "./auth-rate-limit";
import { parleySso } from "../identity/sso-plugin";
import { parleyGuards } from "./guards";

async function build() {
  const prisma = await db();
  const url = publicUrl();
  return betterAuth({
    appName: "Parley",
    secret: authSecret(),
    // With no PARLEY_URL, trust whichever local address the person opened (localhost or 127.0.0.1).
    baseURL: url ?? {
      allowedHosts: ["localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*", "[::1]", "[::1]:*"],
      fallback: "http://localhost:3000",
      protocol: "http",
    },
    database: prismaAdapter(prisma, { provider: "postgresql" }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 128, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    rateLimit: authRateLimit,
    telemetry: { enabled: false },
    // The session and its user in one query (through Prisma's relationJoins), on every request.
    // The client's address as app/api/auth and lib/auth/accounts.ts work it out (never a header a client chose).
    advanced: { database: { joins: true }, ipAddress: { ipAddressHeaders: [CLIENT_HEADER] } },
    // Which account a single sign-on identity may join is decided by lib/identity/sso-linking.ts (its
    // account hooks): a new account, an existing one only after its owner signs in and links (the
    // provider's address may then differ), or by an exact verified address at a domain the admin trusts.
    account: { accountLinking: { requireLocalEmailVerified: false, allowDifferentEmails: true } },
    // Failed single sign-on callbacks land on the sign-in page with ?error=<code>.
    onAPIError: { errorURL: "/sign-in" },
    // Sign-in limits and password strength on every path (lib/auth/guards.ts), single sign-on with its
    // run-time provider and group rules (lib/identity/sso-plugin.ts); the cookie plugin goes last.
    plugins: [parleyGuards(), parleySso(), nextCookies()],
  });
}

export type Auth = Awaited<ReturnType<typeof build>>;

const auth = processOnce("parley.auth", build);

export function getAuth(): Promise<Auth> {
  return auth.get();
}

/** Forgets the instance, so the next getAuth() builds one on the database open then (tests switch databases). */
export function forgetAuth(): void {
  auth.forget();
}
