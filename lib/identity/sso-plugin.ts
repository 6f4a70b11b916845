// Single sign-on inside better-auth. The provider is configured at run time (Admin → Sign-in, a
// database row), so it cannot be given to better-auth at boot: before each sign-in start, link start
// and callback this plugin checks the row's version and, when it changed, discovers the issuer again
// (discovery.ts: endpoints under the address policy, the secret only for the issuer's origin or the
// confirmed one) and builds the provider (sso-client.ts: better-auth's generic OAuth plugin, every
// server-side request through the outbound fetch). Which account an identity may join is decided in
// the account hooks (sso-linking.ts). After a successful callback the person's memberships follow
// their group claim (group-sync.ts). It also refuses password sign-in while an admin turned it off.
import type { BetterAuthPlugin } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { db } from "../db/client";
import { isAppError } from "../errors";
import { outboundFetch } from "../security/outbound-fetch";
import { discoverIssuer } from "./discovery";
import { groupsFromClaims, syncGroups } from "./group-sync";
import { accountHooks, rememberClaims, takeClaims } from "./sso-linking";
import { passwordSignInAllowed } from "./sign-in-methods";
import { ssoClient } from "./sso-client";
import { SSO_PROVIDER_ID, ssoSettings, ssoVersion } from "./sso-provider";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type AuthContext = HookContext["context"];
type SocialProvider = AuthContext["socialProviders"][number];

/** The settings version each provider list holds (one list per better-auth instance). */
const builtVersion = new WeakMap<object, string>();

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
  const discovered = await discoverIssuer(settings.issuer, { tokenOrigin: settings.tokenOrigin });
  const { plugin, finish } = ssoClient(SSO_PROVIDER_ID, settings, discovered, outboundFetch(), (profile) => {
    const email = typeof profile.email === "string" ? profile.email : undefined;
    rememberClaims(String(profile.sub), { email, emailVerified: profile.emailVerified === true, groups: groupsFromClaims(profile, settings.groupsClaim) });
  });
  const built = (await plugin.init(context)) as { context: { socialProviders: SocialProvider[] } };
  const provider = built.context.socialProviders.find((p) => p.id === SSO_PROVIDER_ID);
  if (!provider)
    throw new APIError("UNPROCESSABLE_ENTITY", {
      code: "SSO_PROVIDER_UNAVAILABLE",
      message: "The sign-in provider's settings could not be loaded. Try again in a moment.",
    });
  finish(provider as Parameters<typeof finish>[0]);
  replaceProvider(list, provider);
  builtVersion.set(list, version);
  return true;
}

function asApiError(err: unknown): never {
  if (isAppError(err) && err.status < 500)
    throw new APIError("UNPROCESSABLE_ENTITY", { code: "SSO_PROVIDER_UNAVAILABLE", message: `Single sign-on is not available: ${err.message}` });
  throw err;
}

/** Before starting a sign-in or a link: the provider is built from the current settings. */
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
  const claims = account && takeClaims(account.accountId);
  if (claims) await syncGroups(session.user.id, claims.groups);
});

const refusePassword = createAuthMiddleware(async () => {
  if (await passwordSignInAllowed()) return;
  throw new APIError("FORBIDDEN", { code: "PASSWORD_SIGN_IN_OFF", message: "Password sign-in is turned off. Use single sign-on." });
});

export const parleySso = () =>
  ({
    id: "parley-sso",
    init: () => ({ options: { databaseHooks: { account: accountHooks } } }),
    hooks: {
      before: [
        { matcher: (ctx) => ctx.path === "/sign-in/social" || ctx.path === "/link-social", handler: beforeSignIn },
        { matcher: (ctx) => ctx.path === "/callback/:id", handler: beforeCallback },
        { matcher: (ctx) => ctx.path === "/sign-in/email", handler: refusePassword },
      ],
      after: [{ matcher: (ctx) => ctx.path === "/callback/:id", handler: afterCallback }],
    },
  }) satisfies BetterAuthPlugin;
