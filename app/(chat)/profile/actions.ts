"use server";
// The signed-in person's own account: name, password, default model (in the current team), personal
// instructions, and linking or unlinking single sign-on. Each acts on the caller only; there is no
// id to forge.
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { checkForm, runAction, type ActionState } from "@/lib/actions";
import { startSsoLink, unlinkSso } from "@/lib/auth/accounts";
import { changeOwnPassword, changePasswordSchema, instructionsSchema, nameSchema, renameSelf, setInstructions } from "@/lib/auth/profile";
import { requireUser } from "@/lib/auth/session";
import { requireTeam } from "@/lib/teams/context";
import { personalModelSchema, setPersonalModel } from "@/lib/teams/personal-model";
import { parseForm } from "@/lib/validation";

export async function renameAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    await requireUser();
    await renameSelf(parseForm(nameSchema, form).name, await headers());
    revalidatePath("/", "layout");
    return { ok: true, message: "Name saved." };
  }, form);
}

export async function changePasswordAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    await requireUser();
    await changeOwnPassword(parseForm(changePasswordSchema, form), await headers());
    return { ok: true, message: "Password changed. Your other sessions were signed out." };
  }, form);
}

export async function personalModelAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    await setPersonalModel(await requireTeam(), parseForm(personalModelSchema, form).modelId);
    revalidatePath("/profile");
    return { ok: true, message: "Default model saved. New chats start with it." };
  }, form);
}

export async function instructionsAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    const user = await requireUser();
    await setInstructions(user.id, parseForm(instructionsSchema, form).instructions);
    revalidatePath("/profile");
    return { ok: true, message: "Instructions saved. They apply from your next message." };
  }, form);
}

/** "Link single sign-on": to the provider's login page; it links the identity signed in there to this account. */
export async function linkSsoAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  let url = "";
  const state = await runAction(async () => {
    await requireUser();
    ({ url } = await startSsoLink(await headers()));
  });
  if (state.ok) redirect(url);
  return state;
}

export async function unlinkSsoAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return runAction(async () => {
    const user = await requireUser();
    await unlinkSso(user.id, await headers());
    revalidatePath("/profile");
    return { ok: true, message: "Single sign-on unlinked. Sign in with your email and password." };
  });
}
