// Account actions that run on the server through better-auth's API (sessions are set as cookies by
// the nextCookies plugin): sign-up, sign-in, sign-out, and starting, linking and unlinking single
// sign-on. Errors come back as AppErrors with field messages; a failed sign-in never says whether the
// email exists. Sign-in limits and password strength are better-auth hooks (lib/auth/guards.ts), so
// they hold on its HTTP endpoints as well as here.
import { isAPIError } from "better-auth/api";
import { z } from "zod";
import { db } from "../db/client";
import { SSO_PROVIDER_ID } from "../identity/sso-provider";
import { AppError, Conflict, Invalid, TooMany } from "../errors";
import { withClientAddress } from "../security/client-address";
import { passwordWeakness } from "../security/password-strength";
import { emailField, nameField, passwordField } from "../validation";
import { getAuth } from "./auth";

export const signUpFields = z.object({ name: nameField, email: emailField, password: passwordField });

/** Refuses a password that is easy to guess, naming why, on the password field (a zod check). */
export function strongPassword(v: { name: string; email: string; password: string }, ctx: z.RefinementCtx) {
  const weakness = passwordWeakness(v.password, [v.email, v.name]);
  if (weakness) ctx.addIssue({ code: "custom", path: ["password"], message: weakness });
}

export const signUpSchema = signUpFields.superRefine(strongPassword);
export const signInSchema = z.object({ email: emailField, password: z.string().min(1, "Enter your password.").max(128) });
export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;

function body(err: unknown): { code?: string; message?: string } {
  return isAPIError(err) ? ((err.body as { code?: string; message?: string } | undefined) ?? {}) : {};
}

export async function signUp(input: SignUpInput, headers: Headers): Promise<{ userId: string }> {
  const auth = await getAuth();
  try {
    const res = await auth.api.signUpEmail({ body: input, headers: withClientAddress(headers) });
    return { userId: res.user.id };
  } catch (err) {
    const { code, message } = body(err);
    if (code?.startsWith("USER_ALREADY_EXISTS")) {
      throw Conflict("An account with this email already exists. Sign in instead.", {
        email: "An account with this email already exists.",
      });
    }
    if (code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG") throw Invalid("Invalid password.", { password: "Use 8 to 128 characters." });
    if (code === "PASSWORD_TOO_WEAK") throw Invalid("Choose a harder password.", { password: message ?? "Choose a harder password." });
    throw err;
  }
}

export async function signIn(input: SignInInput, headers: Headers): Promise<{ userId: string }> {
  const auth = await getAuth();
  try {
    const res = await auth.api.signInEmail({ body: input, headers: withClientAddress(headers) });
    return { userId: res.user.id };
  } catch (err) {
    if (isAPIError(err) && err.statusCode === 429) {
      const retry = Number(new Headers(err.headers).get("retry-after")) || 60;
      throw TooMany(body(err).message ?? "Too many sign-in attempts. Wait a minute and try again.", retry);
    }
    if (isAPIError(err) && body(err).code === "PASSWORD_SIGN_IN_OFF")
      throw new AppError("PasswordSignInOff", 403, body(err).message ?? "Password sign-in is turned off.");
    if (isAPIError(err) && err.statusCode < 500) throw Invalid("Wrong email or password.", { form: "Wrong email or password." });
    throw err;
  }
}

export async function signOut(headers: Headers): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers });
}

/**
 * Starts single sign-on: better-auth stores the state and PKCE verifier (its cookie set through
 * nextCookies) and returns the provider's authorization URL to send the browser to. `next` is where
 * the person lands afterwards (a safe local path); failures come back to the sign-in page.
 */
export function startSsoSignIn(next: string, headers: Headers): Promise<{ url: string }> {
  return providerPage((auth) =>
    auth.api.signInSocial({
      body: { provider: SSO_PROVIDER_ID, callbackURL: next, errorCallbackURL: "/sign-in", newUserCallbackURL: next },
      headers: withClientAddress(headers),
    }),
  );
}

/** "Link single sign-on" on the profile: the provider's login page, from where it comes back to the profile. */
export function startSsoLink(headers: Headers): Promise<{ url: string }> {
  return providerPage((auth) =>
    auth.api.linkSocialAccount({
      body: { provider: SSO_PROVIDER_ID, callbackURL: "/profile?sso=linked", errorCallbackURL: "/profile" },
      headers: withClientAddress(headers),
    }),
  );
}

/** The provider's login page a better-auth call answers with; its refusals as SsoUnavailable (4xx). */
async function providerPage(call: (auth: Awaited<ReturnType<typeof getAuth>>) => Promise<{ url?: string }>): Promise<{ url: string }> {
  const auth = await getAuth();
  try {
    const res = await call(auth);
    if (!res.url) throw new AppError("SsoUnavailable", 422, "Single sign-on did not return where to go.");
    return { url: res.url };
  } catch (err) {
    if (isAPIError(err) && err.statusCode < 500) throw new AppError("SsoUnavailable", err.statusCode, body(err).message ?? "Single sign-on is not available.");
    throw err;
  }
}

/** "Unlink single sign-on": removes the caller's link (audited by lib/identity/sso-linking.ts). */
export async function unlinkSso(userId: string, headers: Headers): Promise<void> {
  const prisma = await db();
  const links = await prisma.account.findMany({ where: { userId, providerId: SSO_PROVIDER_ID }, select: { id: true } });
  if (!links.length) return;
  if (!(await prisma.account.count({ where: { userId, providerId: "credential" } }))) {
    throw Conflict("Single sign-on is your only way to sign in: your account has no password to sign in with instead.");
  }
  const auth = await getAuth();
  for (const { id } of links) {
    try {
      await auth.api.unlinkAccount({ body: { accountId: id }, headers: withClientAddress(headers) });
    } catch (err) {
      if (isAPIError(err) && body(err).code === "SESSION_NOT_FRESH") throw new AppError("SessionNotFresh", 403, "Sign in again, then unlink.");
      if (isAPIError(err) && err.statusCode < 500) throw new AppError("UnlinkRefused", 409, body(err).message ?? "Single sign-on could not be unlinked.");
      throw err;
    }
  }
}
