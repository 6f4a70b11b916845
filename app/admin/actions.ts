"use server";
// Admin actions on the current team. Each one checks the admin role on the server first.
import { idFields } from "@/lib/actions";
import { createInvite, createInviteSchema, revokeInvite } from "@/lib/teams/invites";
import { createPasswordReset, createResetSchema } from "@/lib/teams/password-resets";
import { changeRole, changeRoleSchema, createTeam, createTeamSchema, removeMember, removeMemberSchema } from "@/lib/teams/members";
import { parseForm } from "@/lib/validation";
import { publicUrl } from "@/lib/config";
import { defineAction, formText } from "@/app/_server/actions";
import { rememberTeam } from "@/app/_server/team-choice";

const MEMBERS = ["/admin/members"];

export const createInviteAction = defineAction({ role: "admin", revalidate: MEMBERS }, async (ctx, form) => {
  const invite = await createInvite(ctx, parseForm(createInviteSchema, form));
  return { ok: true, message: "Invite link created. Copy it now: it is shown only once.", data: { url: `${baseUrl(ctx.headers)}/invite/${invite.token}` } };
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
    data: { url: `${baseUrl(ctx.headers)}/reset/${reset.token}`, name: reset.name },
  };
});

/** A new team, from any of the caller's teams (they become its admin); then its members page. */
export const createTeamAction = defineAction({ role: "member" }, async (ctx, form) => {
  const { teamId } = await createTeam(ctx, parseForm(createTeamSchema, form).name);
  await rememberTeam(teamId);
  return { redirectTo: "/admin/members" };
});

/** Where links point: PARLEY_URL, else the address this request came to. */
function baseUrl(requestHeaders: Headers): string {
  const host = requestHeaders.get("host") ?? "localhost:3000";
  const proto = requestHeaders.get("x-forwarded-proto") ?? "http";
  return publicUrl() ?? `${proto}://${host}`;
}
