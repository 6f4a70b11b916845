"use server";
// Server actions of Admin → Sign-in (single sign-on). Each checks on the server that the caller is an
// instance admin (an admin of the first team), validates with the form's zod schema, and never echoes
// the client secret back to the browser.
import { revalidatePath } from "next/cache";
import { checkForm, idFields, runAction, type ActionState } from "@/lib/actions";
import { addGroupRule, groupRuleSchema, removeGroupRule, removeRuleSchema } from "@/lib/identity/group-rules";
import { removeSsoProvider, setPasswordSignIn } from "@/lib/identity/sign-in-methods";
import { issuerField, saveSsoProvider, ssoProviderSchema, testDiscovery, tokenOriginField } from "@/lib/identity/sso-provider";
import type { DiscoveredIssuer } from "@/lib/identity/discovery";
import { requireInstanceAdmin } from "@/lib/teams/instance-admin";
import { parseForm } from "@/lib/validation";
import { z } from "zod";

const SECRET_FIELDS = ["clientSecret"];
const run = (fn: () => Promise<ActionState | void>, form: FormData) => runAction(fn, form, SECRET_FIELDS);
const PATH = "/admin/sign-in";

function found(d: DiscoveredIssuer): string {
  const groups = d.claimsSupported.length ? ` Claims offered: ${d.claimsSupported.join(", ")}.` : "";
  return `Found the OpenID provider ${d.issuer}: sign-in at ${d.authorizationEndpoint}, tokens at ${d.tokenEndpoint}, keys at ${d.jwksUri}.${groups}`;
}

export async function testDiscoveryAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return run(async () => {
    await requireInstanceAdmin();
    const { issuer, tokenOrigin } = parseForm(z.object({ issuer: issuerField, tokenOrigin: tokenOriginField }), form);
    return { ok: true, message: found(await testDiscovery(issuer, tokenOrigin)) };
  }, form);
}

export async function saveSsoProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return run(async () => {
    const ctx = await requireInstanceAdmin();
    await saveSsoProvider(ctx, parseForm(ssoProviderSchema, form));
    revalidatePath(PATH);
    return { ok: true, message: "Single sign-on saved. People now see its button on the sign-in page." };
  }, form);
}

export async function removeSsoProviderAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return run(async () => {
    await removeSsoProvider(await requireInstanceAdmin());
    revalidatePath(PATH);
    return { ok: true, message: "Single sign-on removed; password sign-in is on." };
  }, form);
}

export async function setPasswordSignInAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form);
  if (refused) return refused;
  return run(async () => {
    const on = parseForm(z.object({ password: z.enum(["on", "off"]) }), form).password === "on";
    await setPasswordSignIn(await requireInstanceAdmin(), on);
    revalidatePath(PATH);
    return { ok: true, message: on ? "Email and password sign-in is on." : "Email and password sign-in is off: people sign in with single sign-on." };
  }, form);
}

export async function addGroupRuleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("teamId"));
  if (refused) return refused;
  return run(async () => {
    await addGroupRule(await requireInstanceAdmin(), parseForm(groupRuleSchema, form));
    revalidatePath(PATH);
    return { ok: true, message: "Rule added. It applies at each person's next single sign-on." };
  }, form);
}

export async function removeGroupRuleAction(_prev: ActionState, form: FormData): Promise<ActionState> {
  const refused = checkForm(form, idFields("ruleId"));
  if (refused) return refused;
  return run(async () => {
    await removeGroupRule(await requireInstanceAdmin(), parseForm(removeRuleSchema, form).ruleId);
    revalidatePath(PATH);
    return { ok: true, message: "Rule removed." };
  }, form);
}
