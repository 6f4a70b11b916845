"use server";
// Admin actions on the current team. Each one checks the admin role on the server first.
import { idFields } from "@/lib/actions";
import { createInvite, createInviteSchema, revokeInvite } from "@/lib/teams/invites";
import { createPasswordReset, createResetSchema } from "@/lib/teams/password-resets";
import { emailInvite, emailResetLink } from "@/lib/teams/link-emails";
import { requestBaseUrl } from "@/lib/email/links";
import { changeRole, changeRoleSchema, createTeam, createTeamSchema, removeMember, removeMemberSchema } from "@/lib/teams/members";
import { parseForm } from "@/lib/validation";
import { defineAction, formText } from "@/app/_server/actions";
import { rememberTeam } from "@/app/_server/team-choice";

const MEMBERS = ["/admin/members"];

/** An invite link (shown once), and emailed when the admin gave an address and email is on. */
export const createInviteAction = defineAction({ role: "admin", revalidate: MEMBERS }, async (ctx, form) => {
  const invite = await createInvite(ctx, parseForm(createInviteSchema, form));
  const url = `${requestBaseUrl(ctx.headers)}/invite/${invite.token}`;
  if (!invite.email) return { ok: true, message: "Invite link created. Copy it now: it is shown only once.", data: { url } };
  const sent = await emailInvite(ctx, { ...invite, email: invite.email }, url);
  if (!sent.sent)
    return { ok: false, message: `Invite link created, but the email was not sent: ${sent.reason} Copy the link and send it yourself.`, data: { url } };
  return { ok: true, message: `Invite emailed to ${invite.email}. The link is below too, shown only once.`, data: { url } };
});

export const revokeInviteAction = defineAction({ role: "admin", fields: idFields("inviteId"), revalidate: MEMBERS }, async (ctx, form) => {
  await revokeInvite(ctx, formText(form, "inviteId"));
});

export const changeRoleAction = defineAction({ role: "admin", fields: idFields("membershipId"), revalidate: MEMBERS }, async (ctx, form) => {
  const input = parseForm(changeRoleSchema, form);
  await changeRole(ctx, input.membershipId, input.role);
  return { ok: true, message: "Role changed." };
});

export const removeMemberAction = defineAction({ role: "admin", fields: idFields("membershipId"), revalidate: MEMBERS }, async (ctx, form) => {
  await removeMember(ctx, parseForm(removeMemberSchema, form).membershipId);
  return { ok: true, message: "Member removed." };
});

export const createResetLinkAction = defineAction({ role: "admin", fields: idFields("membershipId") }, async (ctx, form) => {
  const reset = await createPasswordReset(ctx, parseForm(createResetSchema, form).membershipId);
  return {
    ok: true,
    message: `Password reset link for ${reset.name} created. Copy it now: it is shown only once.`,
    data: { url: `${requestBaseUrl(ctx.headers)}/reset/${reset.token}`, name: reset.name },
  };
});

/** A reset link for a member, emailed to their own address (shown too when the email could not be sent). */
export const emailResetLinkAction = defineAction({ role: "admin", fields: idFields("membershipId") }, async (ctx, form) => {
  const reset = await createPasswordReset(ctx, parseForm(createResetSchema, form).membershipId);
  const url = `${requestBaseUrl(ctx.headers)}/reset/${reset.token}`;
  const sent = await emailResetLink(ctx, reset, url);
  if (!sent.sent)
    return { ok: false, message: `Password reset link for ${reset.name} created, but the email was not sent: ${sent.reason}`, data: { url, name: reset.name } };
  return { ok: true, message: `Password reset link emailed to ${reset.name} (${reset.email}). It works once, for 24 hours.` };
});

/** A new team, from any of the caller's teams (they become its admin); then its members page. */
export const createTeamAction = defineAction({ role: "member" }, async (ctx, form) => {
  const { teamId } = await createTeam(ctx, parseForm(createTeamSchema, form).name);
  await rememberTeam(teamId);
  return { redirectTo: "/admin/members" };
});
