"use server";
// The signed-in person's own account: name, password, default model (in the current team), personal
// instructions, email notifications, and linking or unlinking single sign-on. Each acts on the caller only; there is no
// id to forge.
import { startSsoLink, unlinkSso } from "@/lib/auth/accounts";
import { changeOwnPassword, changePasswordSchema, instructionsSchema, nameSchema, renameSelf, setInstructions } from "@/lib/auth/profile";
import { personalModelSchema, setPersonalModel } from "@/lib/teams/personal-model";
import { choicesSchema, setNotificationChoices } from "@/lib/notifications/preferences";
import { parseForm } from "@/lib/validation";
import { defineAction } from "@/app/_server/actions";

export const renameAction = defineAction({ role: "user", revalidate: [{ layout: "/" }] }, async (ctx, form) => {
  await renameSelf(parseForm(nameSchema, form).name, ctx.headers);
  return { ok: true, message: "Name saved." };
});

export const changePasswordAction = defineAction({ role: "user" }, async (ctx, form) => {
  await changeOwnPassword(parseForm(changePasswordSchema, form), ctx.headers);
  return { ok: true, message: "Password changed. Your other sessions were signed out." };
});

export const personalModelAction = defineAction({ role: "member", revalidate: ["/profile"] }, async (ctx, form) => {
  await setPersonalModel(ctx, parseForm(personalModelSchema, form).modelId);
  return { ok: true, message: "Default model saved. New chats start with it." };
});

export const instructionsAction = defineAction({ role: "user", revalidate: ["/profile"] }, async (ctx, form) => {
  await setInstructions(ctx.user.id, parseForm(instructionsSchema, form).instructions);
  return { ok: true, message: "Instructions saved. They apply from your next message." };
});

/** "Link single sign-on": to the provider's login page; it links the identity signed in there to this account. */
export const linkSsoAction = defineAction({ role: "user" }, async (ctx) => {
  const { url } = await startSsoLink(ctx.headers);
  return { redirectTo: url };
});

export const unlinkSsoAction = defineAction({ role: "user", revalidate: ["/profile"] }, async (ctx) => {
  await unlinkSso(ctx.user.id, ctx.headers);
  return { ok: true, message: "Single sign-on unlinked. Sign in with your email and password." };
});

export const notificationsAction = defineAction({ role: "user", revalidate: ["/profile"] }, async (ctx, form) => {
  const { approvalRequests, ownCallsDecided } = parseForm(choicesSchema, form);
  await setNotificationChoices(ctx.user.id, { approvalRequests, ownCallsDecided });
  return { ok: true, message: "Notifications saved." };
});
