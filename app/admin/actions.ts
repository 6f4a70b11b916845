"use server";
// Admin actions on the current team. Each one checks the admin role on the server first.
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { requireAdmin, requireTeam } from "@/lib/teams/context";
import { createInvite, createInviteSchema, revokeInvite } from "@/lib/teams/invites";
import { createPasswordReset, createResetSchema } from "@/lib/teams/password-resets";
import { changeRole, changeRoleSchema, createTeam, createTeamSchema, removeMember, removeMemberSchema } from "@/lib/teams/members";
import { rememberTeam } from "@/lib/teams/switch";
import { parseForm } from "@/lib/validation";
import { publicUrl } from "@/lib/config";

export async function createInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const invite = await createInvite(ctx, parseForm(createInviteSchema, form));
    revalidatePath("/admin/members");
    const base = publicUrl() ?? (await origin());
    return { ok: true, message: "Invite link created. Copy it now: it is shown only once.", data: { url: `${base}/invite/${invite.token}` } };
  }, form);
}

export async function revokeInviteAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("inviteId"));
  if (refused) return refused;
  return runAction(async () => {
    await revokeInvite(await requireAdmin(), String(form.get("inviteId") ?? ""));
    revalidatePath("/admin/members");
  });
}

export async function changeRoleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("membershipId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const input = parseForm(changeRoleSchema, form);
    await changeRole(ctx, input.membershipId, input.role);
    revalidatePath("/admin/members");
    return { ok: true, message: "Role changed." };
  });
}

export async function removeMemberAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("membershipId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    await removeMember(ctx, parseForm(removeMemberSchema, form).membershipId);
    revalidatePath("/admin/members");
    return { ok: true, message: "Member removed." };
  });
}

export async function createResetLinkAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("membershipId"));
  if (refused) return refused;
  return runAction(async () => {
    const ctx = await requireAdmin();
    const reset = await createPasswordReset(ctx, parseForm(createResetSchema, form).membershipId);
    const base = publicUrl() ?? (await origin());
    return {
      ok: true,
      message: `Password reset link for ${reset.name} created. Copy it now: it is shown only once.`,
      data: { url: `${base}/reset/${reset.token}`, name: reset.name },
    };
  });
}

export async function createTeamAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  let teamId = "";
  const state = await runAction(async () => {
    ({ teamId } = await createTeam(await requireTeam(), parseForm(createTeamSchema, form).name));
    await rememberTeam(teamId);
  }, form);
  if (state.ok) redirect("/admin/members");
  return state;
}

async function origin(): Promise<string> {
  const h = await headers();
  const host = h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? "http";
  return `${proto}://${host}`;
}
