"use server";
// Server actions of Admin → Sign-in (single sign-on). Each checks on the server that the caller is an
// instance admin (an admin of the first team), validates with the form's zod schema, and never echoes
// the client secret back to the browser.
import { z } from "zod";
import { idFields } from "@/lib/actions";
import { addGroupRule, groupRuleSchema, removeGroupRule, removeRuleSchema } from "@/lib/identity/group-rules";
import { removeSsoProvider, setPasswordSignIn } from "@/lib/identity/sign-in-methods";
import { issuerField, saveSsoProvider, ssoProviderSchema, testDiscovery, tokenOriginField } from "@/lib/identity/sso-provider";
import type { DiscoveredIssuer } from "@/lib/identity/discovery";
import { parseForm } from "@/lib/validation";
import { defineAction, type FormActionOptions } from "@/app/_server/actions";

const INSTANCE_ADMIN = { role: "instance-admin", secret: ["clientSecret"] } satisfies FormActionOptions<"instance-admin">;
const CHANGES = { ...INSTANCE_ADMIN, revalidate: ["/admin/sign-in"] };

function found(d: DiscoveredIssuer): string {
  const groups = d.claimsSupported.length ? ` Claims offered: ${d.claimsSupported.join(", ")}.` : "";
  return `Found the OpenID provider ${d.issuer}: sign-in at ${d.authorizationEndpoint}, tokens at ${d.tokenEndpoint}, keys at ${d.jwksUri}.${groups}`;
}

export const testDiscoveryAction = defineAction(INSTANCE_ADMIN, async (_ctx, form) => {
  const { issuer, tokenOrigin } = parseForm(z.object({ issuer: issuerField, tokenOrigin: tokenOriginField }), form);
  return { ok: true, message: found(await testDiscovery(issuer, tokenOrigin)) };
});

export const saveSsoProviderAction = defineAction(CHANGES, async (ctx, form) => {
  await saveSsoProvider(ctx, parseForm(ssoProviderSchema, form));
  return { ok: true, message: "Single sign-on saved. People now see its button on the sign-in page." };
});

export const removeSsoProviderAction = defineAction(CHANGES, async (ctx) => {
  await removeSsoProvider(ctx);
  return { ok: true, message: "Single sign-on removed; password sign-in is on." };
});

export const setPasswordSignInAction = defineAction(CHANGES, async (ctx, form) => {
  const on = parseForm(z.object({ password: z.enum(["on", "off"]) }), form).password === "on";
  await setPasswordSignIn(ctx, on);
  return { ok: true, message: on ? "Email and password sign-in is on." : "Email and password sign-in is off: people sign in with single sign-on." };
});

export const addGroupRuleAction = defineAction({ ...CHANGES, fields: idFields("teamId") }, async (ctx, form) => {
  await addGroupRule(ctx, parseForm(groupRuleSchema, form));
  return { ok: true, message: "Rule added. It applies at each person's next single sign-on." };
});

export const removeGroupRuleAction = defineAction({ ...CHANGES, fields: idFields("ruleId") }, async (ctx, form) => {
  await removeGroupRule(ctx, parseForm(removeRuleSchema, form).ruleId);
  return { ok: true, message: "Rule removed." };
});
