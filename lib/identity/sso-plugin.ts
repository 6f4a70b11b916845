// Single sign-on inside better-auth. The provider is configured at run time (Admin → Sign-in, a
// database row), so it cannot be given to better-auth at boot: before each sign-in start and each
// callback this plugin checks the row's version and, when it changed, builds the provider with
// better-auth's own generic OAuth plugin (discovery, PKCE, state, nonce, ID-token verification
// against the issuer's keys) and puts it in the instance's provider list. After a successful
// callback the person's memberships follow their group claim (group-sync.ts). It also refuses
// password sign-in while an admin has turned it off.
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth, type GenericOAuthUserInfo } from "better-auth/plugins/generic-oauth";
import { db } from "../db/client";
import { isAppError } from "../errors";
import { discoverIssuer, discoveryUrl } from "./discovery";
import { groupsFromClaims, syncGroups } from "./group-sync";
import { passwordSignInAllowed } from "./sign-in-methods";
import { SSO_PROVIDER_ID, ssoSettings, ssoVersion } from "./sso-provider";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type AuthContext = HookContext["context"];
type SocialProvider = AuthContext["socialProviders"][number];

/** The settings version each provider list holds (one list per better-auth instance). */
const builtVersion = new WeakMap<object, string>();

/** Groups seen in a verified profile, by subject, until the callback's after-hook takes them. */
const CLAIMS_TTL_MS = 120_000;
const pendingGroups = new Map<string, { groups: string[]; at: number }>();

function remember(sub: string, groups: string[]) {
  const now = Date.now();
  for (const [k, v] of pendingGroups) if (now - v.at > CLAIMS_TTL_MS) pendingGroups.delete(k);
  pendingGroups.set(sub, { groups, at: now });
}

function take(sub: string): string[] | undefined {
  const entry = pendingGroups.get(sub);
  pendingGroups.delete(sub);
  return entry && Date.now() - entry.at <= CLAIMS_TTL_MS ? entry.groups : undefined;
}

function replaceProvider(list: SocialProvider[], provider: SocialProvider | null) {
  for (let i = list.length - 1; i >= 0; i--) if (list[i].id === SSO_PROVIDER_ID) list.splice(i, 1);
  if (provider) list.unshift(provider);
}

/** Makes the instance's provider list match the stored settings; throws a 4xx AppError when it cannot. */
async function ensureProvider(context: AuthContext): Promise<boolean> {
  const list = context.socialProviders;
  const version = await ssoVersion();
  if (!version) {
    replaceProvider(list, null);
    builtVersion.delete(list);
    return false;
  }
  if (builtVersion.get(list) === version && list.some((p) => p.id === SSO_PROVIDER_ID)) return true;
  const settings = await ssoSettings();
  if (!settings) return false;
  const discovered = await discoverIssuer(settings.issuer);
  const plugin = genericOAuth({
    config: [
      {
        providerId: SSO_PROVIDER_ID,
        name: settings.name,
        discoveryUrl: discoveryUrl(settings.issuer),
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        ...(settings.clientSecret ? { authentication: discovered.tokenEndpointAuth } : { tokenEndpointAuth: { method: "none" as const } }),
        scopes: settings.scopes,
        pkce: true,
        requireIdTokenVerification: true,
        mapProfileToUser(profile: GenericOAuthUserInfo) {
          const sub = profile.sub ?? profile.id;
          if (sub != null) remember(String(sub), groupsFromClaims(profile, settings.groupsClaim));
          return {};
        },
      },
    ],
  });
  const built = (await plugin.init(context)) as { context: { socialProviders: SocialProvider[]; genericOAuthPendingDiscovery: Map<string, unknown> } };
  if (built.context.genericOAuthPendingDiscovery.has(SSO_PROVIDER_ID)) {
    throw new APIError("UNPROCESSABLE_ENTITY", { code: "SSO_PROVIDER_UNAVAILABLE", message: "The sign-in provider's settings could not be loaded. Try again in a moment." });
  }
  replaceProvider(list, built.context.socialProviders.find((p) => p.id === SSO_PROVIDER_ID) ?? null);
  builtVersion.set(list, version);
  return true;
}

function asApiError(err: unknown): never {
  if (isAppError(err) && err.status < 500) throw new APIError("UNPROCESSABLE_ENTITY", { code: "SSO_PROVIDER_UNAVAILABLE", message: `Single sign-on is not available: ${err.message}` });
  throw err;
}

const beforeSignIn = createAuthMiddleware(async (ctx) => {
  if (ctx.body?.provider !== SSO_PROVIDER_ID) return;
  const ready = await ensureProvider(ctx.context).catch(asApiError);
  if (!ready) throw new APIError("NOT_FOUND", { code: "SSO_NOT_CONFIGURED", message: "Single sign-on is not set up." });
});

const beforeCallback = createAuthMiddleware(async (ctx) => {
  if (ctx.params?.id !== SSO_PROVIDER_ID) return;
  try {
    await ensureProvider(ctx.context);
  } catch (err) {
    ctx.context.logger.error("single sign-on provider unavailable at callback", err);
    throw ctx.redirect("/sign-in?error=provider_unavailable");
  }
});

const afterCallback = createAuthMiddleware(async (ctx) => {
  if (ctx.params?.id !== SSO_PROVIDER_ID) return;
  const session = ctx.context.newSession;
  if (!session) return;
  const prisma = await db();
  const account = await prisma.account.findFirst({ where: { userId: session.user.id, providerId: SSO_PROVIDER_ID }, select: { accountId: true } });
  const groups = account && take(account.accountId);
  if (groups) await syncGroups(session.user.id, groups);
});

const refusePassword = createAuthMiddleware(async () => {
  if (await passwordSignInAllowed()) return;
  throw new APIError("FORBIDDEN", { code: "PASSWORD_SIGN_IN_OFF", message: "Password sign-in is turned off. Use single sign-on." });
});

export const parleySso = () =>
  ({
    id: "parley-sso",
    hooks: {
      before: [
        { matcher: (ctx) => ctx.path === "/sign-in/social", handler: beforeSignIn },
        { matcher: (ctx) => ctx.path === "/callback/:id", handler: beforeCallback },
        { matcher: (ctx) => ctx.path === "/sign-in/email", handler: refusePassword },
      ],
      after: [{ matcher: (ctx) => ctx.path === "/callback/:id", handler: afterCallback }],
    },
  }) satisfies BetterAuthPlugin;
