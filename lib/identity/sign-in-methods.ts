// Which ways in are open: email and password (on unless an instance admin turns it off) and the
// single sign-on provider. The rule that keeps admins from locking everybody out: password sign-in
// can only be turned off while a provider is configured and the admin turning it off has signed in
// through it at least once (so they can get back in), and removing the provider turns password
// sign-in back on. Group rules never take away a team's last admin (group-sync.ts). When the provider
// itself is down, the operator opens password sign-in again with PARLEY_FORCE_PASSWORD_SIGN_IN=1.
import { audited, type Actor } from "../audit";
import { config } from "../config";
import { db } from "../db/client";
import { Conflict } from "../errors";
import { SSO_PROVIDER_ID, ssoProviderName } from "./sso-provider";

const PASSWORD_OFF = "password_sign_in_off";

export type SignInMethods = { password: boolean; sso: { name: string } | null };

/** Whether password sign-in is open: not turned off, or the operator forces it on (PARLEY_FORCE_PASSWORD_SIGN_IN). */
export async function passwordSignInAllowed(): Promise<boolean> {
  if (config().PARLEY_FORCE_PASSWORD_SIGN_IN) return true;
  const prisma = await db();
  return !(await prisma.setting.findUnique({ where: { key: PASSWORD_OFF } }));
}

/** What the sign-in page offers. */
export async function signInMethods(): Promise<SignInMethods> {
  const [password, name] = await Promise.all([passwordSignInAllowed(), ssoProviderName()]);
  return { password: password || !name, sso: name ? { name } : null };
}

/** Whether this user has signed in through the provider (has a linked account). */
export async function hasSsoAccount(userId: string): Promise<boolean> {
  const prisma = await db();
  return (await prisma.account.count({ where: { userId, providerId: SSO_PROVIDER_ID } })) > 0;
}

export async function setPasswordSignIn(actor: Actor, on: boolean): Promise<void> {
  if (!on) {
    if (!(await ssoProviderName())) throw Conflict("Set up single sign-on before turning password sign-in off.");
    if (!(await hasSsoAccount(actor.user.id))) {
      throw Conflict("Sign in once with single sign-on yourself before turning password sign-in off, so you cannot be locked out.");
    }
  }
  if (on === (await passwordSignInAllowed())) return;
  await audited(
    actor,
    async (tx) => {
      if (on) await tx.setting.deleteMany({ where: { key: PASSWORD_OFF } });
      else await tx.setting.create({ data: { key: PASSWORD_OFF, value: new Date().toISOString() } });
    },
    { action: on ? "sso.password_sign_in.on" : "sso.password_sign_in.off", targetType: "setting", targetId: PASSWORD_OFF },
  );
}

/** Removes the provider (and its accounts' links stay, unused); password sign-in is turned back on. */
export async function removeSsoProvider(actor: Actor): Promise<void> {
  await audited(
    actor,
    async (tx) => {
      await tx.setting.deleteMany({ where: { key: PASSWORD_OFF } });
      return (await tx.ssoProvider.deleteMany({})).count;
    },
    (count) => (count ? { action: "sso.provider.delete", targetType: "sso_provider", targetId: "oidc" } : null),
  );
}

/** The profile's single sign-on section: the provider's name, whether this user is linked, and whether they have a password. */
export async function ssoLinkOf(userId: string): Promise<{ name: string | null; linked: boolean; hasPassword: boolean }> {
  const prisma = await db();
  const [name, linked, hasPassword] = await Promise.all([
    ssoProviderName(),
    hasSsoAccount(userId),
    prisma.account.count({ where: { userId, providerId: "credential" } }).then((n) => n > 0),
  ]);
  return { name, linked, hasPassword };
}
