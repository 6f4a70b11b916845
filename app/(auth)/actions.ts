"use server";
// Account actions: first-run setup, sign in, sign out, join through an invite, ask for a reset link
// by email ("Forgot password?"), reset a password through a link.
import { redirect } from "next/navigation";
import { z } from "zod";
import { signIn, signInSchema, signOut, signUp, signUpSchema, startSsoSignIn } from "@/lib/auth/accounts";
import { safeNextPath } from "@/lib/auth/next-path";
import { acceptInvite, joinWithNewAccount } from "@/lib/teams/invites";
import { resetPassword, useResetSchema } from "@/lib/teams/password-resets";
import { forgotPasswordSchema, requestPasswordReset } from "@/lib/teams/forgot-password";
import { trustedBaseUrl } from "@/lib/email/links";
import { passwordSignInAllowed } from "@/lib/identity/sign-in-methods";
import { clientAddress } from "@/lib/security/client-address";
import { Invalid } from "@/lib/errors";
import { createFirstAdmin, setupSchema } from "@/lib/teams/setup";
import { parseForm, tokenField } from "@/lib/validation";
import { defineAction, defineArgsAction, formText } from "@/app/_server/actions";
import { rememberTeam } from "@/app/_server/team-choice";

/** The forms of an invite or reset link: its token in its shape. */
const LINK = { fields: { token: tokenField } };

export const setupAction = defineAction({ role: "public" }, async (ctx, form) => {
  const { teamId } = await createFirstAdmin(parseForm(setupSchema, form), ctx.headers);
  await rememberTeam(teamId);
  return { redirectTo: "/chat" };
});

export const signInAction = defineAction({ role: "public" }, async (ctx, form) => {
  await signIn(parseForm(signInSchema, form), ctx.headers);
  return { redirectTo: safeNextPath(form.get("next")) };
});

/** "Sign in with <provider>": to the provider's login page, or the reason it cannot start. */
export const ssoSignInAction = defineAction({ role: "public" }, async (ctx, form) => {
  const { url } = await startSsoSignIn(safeNextPath(form.get("next")), ctx.headers);
  return { redirectTo: url };
});

/** The Sign out form (no state); a call that is not its form's (no FormData) is refused with 404. */
export const signOutAction = defineArgsAction({ args: z.instanceof(FormData), role: "public" }, async (ctx) => {
  await signOut(ctx.headers);
  redirect("/sign-in");
});

/** New account through an invite link: claim the link, create the account, join the team. */
export const joinWithNewAccountAction = defineAction({ ...LINK, role: "public" }, async (ctx, form) => {
  const input = parseForm(signUpSchema, form);
  const { teamId } = await joinWithNewAccount(formText(form, "token"), () => signUp(input, ctx.headers));
  await rememberTeam(teamId);
  return { redirectTo: "/chat" };
});

/** A signed-in user accepts an invite into another team. */
export const joinAsCurrentUserAction = defineAction({ ...LINK, role: "user" }, async (ctx, form) => {
  const { teamId } = await acceptInvite(ctx.user.id, formText(form, "token"));
  await rememberTeam(teamId);
  return { redirectTo: "/chat" };
});

/** "Forgot password?": the same answer whether or not the address has an account; the link goes by email. */
export const forgotPasswordAction = defineAction({ role: "public" }, async (ctx, form) => {
  const { email } = parseForm(forgotPasswordSchema, form);
  if (!(await passwordSignInAllowed())) throw Invalid("Password sign-in is off on this server: sign in with single sign-on.");
  const { message } = await requestPasswordReset({ email, clientAddress: clientAddress(ctx.headers), baseUrl: trustedBaseUrl(ctx.headers) });
  return { ok: true, message };
});

/** A new password through a reset link; then the person signs in with it. */
export const resetPasswordAction = defineAction({ ...LINK, role: "public" }, async (_ctx, form) => {
  await resetPassword(formText(form, "token"), parseForm(useResetSchema, form).newPassword);
  return { redirectTo: "/sign-in?reset=1" };
});
