"use server";
// Account actions: first-run setup, sign in, sign out, join through an invite, reset a password
// through an admin's link.
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { checkForm, interrupts, runAction, type ActionState } from "@/lib/actions";
import { signIn, signInSchema, signOut, signUp, signUpSchema, startSsoSignIn } from "@/lib/auth/accounts";
import { safeNextPath } from "@/lib/auth/next-path";
import { requireUser } from "@/lib/auth/session";
import { acceptInvite, joinWithNewAccount } from "@/lib/teams/invites";
import { resetPassword, useResetSchema } from "@/lib/teams/password-resets";
import { createFirstAdmin, setupSchema } from "@/lib/teams/setup";
import { rememberTeam } from "@/lib/teams/switch";
import { parseForm, tokenField } from "@/lib/validation";

export async function setupAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  const state = await runAction(async () => {
    const input = parseForm(setupSchema, form);
    const { teamId } = await createFirstAdmin(input, await headers());
    await rememberTeam(teamId);
  }, form);
  if (state.ok) redirect("/chat");
  return state;
}

export async function signInAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  const state = await runAction(async () => {
    await signIn(parseForm(signInSchema, form), await headers());
  }, form);
  if (state.ok) redirect(safeNextPath(form.get("next")));
  return state;
}

/** "Sign in with <provider>": to the provider's login page, or the reason it cannot start. */
export async function ssoSignInAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  let url = "";
  const state = await runAction(async () => {
    ({ url } = await startSsoSignIn(safeNextPath(form.get("next")), await headers()));
  });
  if (state.ok) redirect(url);
  return state;
}

/** The Sign out form; a call that is not its form's (no FormData) is refused with 404. */
export async function signOutAction(form: unknown): Promise<void> {
  if (!(form instanceof FormData)) notFound();
  await interrupts(async () => signOut(await headers()));
  redirect("/sign-in");
}

/** New account through an invite link: claim the link, create the account, join the team. */
export async function joinWithNewAccountAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, { token: tokenField });
  if (refused) return refused;
  const token = String(form.get("token") ?? "");
  const state = await runAction(async () => {
    const input = parseForm(signUpSchema, form);
    const requestHeaders = await headers();
    const { teamId } = await joinWithNewAccount(token, () => signUp(input, requestHeaders));
    await rememberTeam(teamId);
  }, form);
  if (state.ok) redirect("/chat");
  return state;
}

/** A signed-in user accepts an invite into another team. */
export async function joinAsCurrentUserAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, { token: tokenField });
  if (refused) return refused;
  const token = String(form.get("token") ?? "");
  const state = await runAction(async () => {
    const user = await requireUser();
    const { teamId } = await acceptInvite(user.id, token);
    await rememberTeam(teamId);
  });
  if (state.ok) redirect("/chat");
  return state;
}

/** A new password through a reset link; then the person signs in with it. */
export async function resetPasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, { token: tokenField });
  if (refused) return refused;
  const token = String(form.get("token") ?? "");
  const state = await runAction(async () => {
    await resetPassword(token, parseForm(useResetSchema, form).newPassword);
  });
  if (state.ok) redirect("/sign-in?reset=1");
  return state;
}
