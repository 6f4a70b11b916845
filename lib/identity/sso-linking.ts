// Which Parley account a single sign-on identity may join: better-auth's account hooks for the SSO
// provider. A new person gets an account of their own. An existing account is joined only when its
// owner, signed in (with their password), links the provider from their profile, or when an admin
// trusts the provider for the email's domain and the provider's verified address is exactly the
// account's (no case folding). Anything else is refused with "link_required", so an identity provider
// that vouches for an address too easily cannot take over a password account. Every link and unlink
// is an audit event in the first team (where instance admins read single sign-on's events).
import { APIError, getOAuthState } from "better-auth/api";
import { db } from "../db/client";
import { passwordSignInAllowed } from "./sign-in-methods";
import { SSO_PROVIDER_ID, ssoSettings } from "./sso-provider";

type AccountRow = { id?: string; userId: string; providerId: string; accountId: string };
type HookContext = {
  context: { internalAdapter: { findAccounts(userId: string): Promise<unknown[]>; findUserById(id: string): Promise<{ email: string } | null> } };
} | null;
type LinkHow = "new-account" | "signed-in" | "trusted-domain";

/** What the provider said about a subject during its callback (claims are read before accounts are made). */
export type ProviderClaims = { email?: string; emailVerified: boolean; groups: string[] };

const CLAIMS_TTL_MS = 120_000;
const pending = new Map<string, ProviderClaims & { at: number }>();
const decided = new Map<string, LinkHow>();

export function rememberClaims(sub: string, claims: ProviderClaims) {
  const now = Date.now();
  for (const [k, v] of pending) if (now - v.at > CLAIMS_TTL_MS) pending.delete(k);
  pending.set(sub, { ...claims, at: now });
}

function peekClaims(sub: string): ProviderClaims | undefined {
  const entry = pending.get(sub);
  return entry && Date.now() - entry.at <= CLAIMS_TTL_MS ? entry : undefined;
}

/** The claims of the callback that just ended (taken, so they are used once). */
export function takeClaims(sub: string): ProviderClaims | undefined {
  const entry = peekClaims(sub);
  pending.delete(sub);
  return entry;
}

/** Whether the email's domain is one the admin trusts this provider for (domains are stored in lower case). */
export function trustedDomain(email: string, domains: string[]): boolean {
  const at = email.lastIndexOf("@");
  return at > 0 && domains.includes(email.slice(at + 1));
}

export const LINK_REQUIRED = "link_required";
const refuseLink = () =>
  new APIError("FORBIDDEN", { code: LINK_REQUIRED, message: "An account with this email exists: sign in with your password to link single sign-on." });

async function decide(account: AccountRow, ctx: HookContext): Promise<LinkHow> {
  const state = await getOAuthState().catch(() => null);
  if (state?.link) return "signed-in"; // the account's owner, signed in, asked to link
  if (!ctx) throw refuseLink();
  // Read through better-auth's adapter: a new user is made in its transaction just before this.
  const accounts = await ctx.context.internalAdapter.findAccounts(account.userId);
  if (accounts.length === 0) return "new-account";
  const [user, settings] = await Promise.all([ctx.context.internalAdapter.findUserById(account.userId), ssoSettings()]);
  const claims = peekClaims(account.accountId);
  const exact = !!user && !!claims?.email && claims.email === user.email;
  if (exact && claims.emailVerified && settings && trustedDomain(claims.email!, settings.trustedDomains)) return "trusted-domain";
  throw refuseLink();
}

async function record(action: "sso.link" | "sso.unlink", account: AccountRow, data: Record<string, string>) {
  const prisma = await db();
  // The first team, as lib/teams/instance-admin.ts names it (lib/identity may not import lib/teams).
  const first = await prisma.team.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  await prisma.auditEvent.create({
    data: {
      teamId: first?.id ?? null,
      actorId: account.userId,
      action,
      targetType: "user",
      targetId: account.userId,
      data: { ...data, subject: account.accountId },
    },
  });
}

const key = (a: AccountRow) => `${a.providerId}\u0000${a.accountId}\u0000${a.userId}`;

/** better-auth database hooks on accounts (given to better-auth by the sign-on plugin). */
export const accountHooks = {
  create: {
    async before(account: AccountRow, ctx: HookContext) {
      if (account.providerId !== SSO_PROVIDER_ID) return;
      decided.set(key(account), await decide(account, ctx));
    },
    async after(account: AccountRow | null) {
      if (account?.providerId !== SSO_PROVIDER_ID) return;
      const how = decided.get(key(account));
      decided.delete(key(account));
      if (how) await record("sso.link", account, { how });
    },
  },
  delete: {
    async before(account: AccountRow) {
      if (account.providerId !== SSO_PROVIDER_ID || (await passwordSignInAllowed())) return;
      throw new APIError("FORBIDDEN", { code: "SSO_UNLINK_LOCKOUT", message: "Password sign-in is turned off: without single sign-on you could not sign in." });
    },
    async after(account: AccountRow | null) {
      if (account?.providerId === SSO_PROVIDER_ID) await record("sso.unlink", account, {});
    },
  },
};
