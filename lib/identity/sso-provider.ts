// The instance's OpenID Connect provider: what instance admins set in Admin → Sign-in (saved only
// after its discovery succeeds; the client secret sealed for the issuer's origin and write-only),
// the view they get back (no secret, only whether one is set), and the decrypted settings the
// sign-in plugin (sso-plugin.ts) builds its provider from. Besides the provider itself: the token
// endpoint's server when it is not the issuer's (it receives the secret), the email domains trusted
// for linking to existing accounts, and whether group rules manage every membership. Changes are
// audited, without secrets.
import { z } from "zod";
import { audited, type Actor } from "../audit";
import { db } from "../db/client";
import { openSecretFor, sealSecret, secretMoved, writeOnly } from "../security/stored-secrets";
import { discoverIssuer, normaliseIssuer, originOf, type DiscoveredIssuer } from "./discovery";

/** The one provider row's id; the better-auth provider id is SSO_PROVIDER_ID. */
const ROW_ID = "oidc";
export const SSO_PROVIDER_ID = "sso";
/** Where the provider sends people back: register `<Parley URL>` + this at the provider. */
export const SSO_CALLBACK_PATH = `/api/auth/callback/${SSO_PROVIDER_ID}`;

const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const domainName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

export const tokenOriginField = z
  .string()
  .trim()
  .max(300, "At most 300 characters.")
  .optional()
  .transform((v) => (v ? v : undefined))
  .refine((v) => v === undefined || originOf(v) !== null, "Enter the server as https://host (with :port if it has one).")
  .transform((v) => (v ? originOf(v)! : undefined));

export const issuerField = z
  .string()
  .trim()
  .min(1, "Enter the issuer URL.")
  .max(500, "At most 500 characters.")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.search && !u.hash && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "Enter the issuer's http(s) URL, without query or fragment, e.g. https://login.example.com/realms/acme.")
  .transform(normaliseIssuer);

export const ssoProviderSchema = z.object({
  name: z.string().trim().min(1, "Enter the name people see on the button.").max(60, "At most 60 characters."),
  issuer: issuerField,
  clientId: z.string().trim().min(1, "Enter the client id.").max(300, "At most 300 characters."),
  clientSecret: z
    .string()
    .max(2000, "At most 2000 characters.")
    .optional()
    .transform((v) => (v ? v : undefined)),
  clearSecret: z.literal("on").optional(),
  scopes: z
    .string()
    .trim()
    .max(500, "At most 500 characters.")
    .transform((v) => v.split(/\s+/).filter(Boolean))
    .refine((list) => list.every((s) => scopeToken.test(s)), "Scopes are words separated by spaces.")
    .transform((list) => [...new Set(["openid", ...list])].join(" ")),
  groupsClaim: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_:./-]{1,100}$/, "A claim name such as groups or realm_access.roles.")
    .default("groups"),
  tokenOrigin: tokenOriginField,
  trustedDomains: z
    .string()
    .trim()
    .max(1000, "At most 1000 characters.")
    .default("")
    .transform((v) =>
      v
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean),
    )
    .refine((list) => list.every((d) => domainName.test(d)), "Email domains such as example.com, separated by spaces.")
    .transform((list) => [...new Set(list)].join(" ")),
  rulesManageAll: z.literal("on").optional(),
});
export type SsoProviderInput = z.infer<typeof ssoProviderSchema>;

/** What admins see: never the secret, only whether one is set. */
export type SsoProviderView = {
  name: string;
  issuer: string;
  clientId: string;
  scopes: string;
  groupsClaim: string;
  tokenOrigin: string | null;
  trustedDomains: string;
  rulesManageAll: boolean;
  secretSet: boolean;
  updatedAt: string;
};

/** The decrypted settings sign-in uses (server memory only). */
export type SsoSettings = {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  groupsClaim: string;
  tokenOrigin: string | null;
  trustedDomains: string[];
  rulesManageAll: boolean;
  version: string;
};

export async function ssoProviderView(): Promise<SsoProviderView | null> {
  const prisma = await db();
  const row = await prisma.ssoProvider.findUnique({ where: { id: ROW_ID } });
  if (!row) return null;
  const { name, issuer, clientId, scopes, groupsClaim, tokenOrigin, trustedDomains, rulesManageAll } = row;
  return {
    name,
    issuer,
    clientId,
    scopes,
    groupsClaim,
    tokenOrigin,
    trustedDomains,
    rulesManageAll,
    secretSet: !!row.clientSecretEnc,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The provider's display name for the sign-in page, or null when none is configured. */
export async function ssoProviderName(): Promise<string | null> {
  const prisma = await db();
  const row = await prisma.ssoProvider.findUnique({ where: { id: ROW_ID }, select: { name: true } });
  return row?.name ?? null;
}

/** A cheap check whether the settings changed since `version` (one indexed read). */
export async function ssoVersion(): Promise<string | null> {
  const prisma = await db();
  const row = await prisma.ssoProvider.findUnique({ where: { id: ROW_ID }, select: { updatedAt: true } });
  return row ? row.updatedAt.toISOString() : null;
}

export async function ssoSettings(): Promise<SsoSettings | null> {
  const prisma = await db();
  const row = await prisma.ssoProvider.findUnique({ where: { id: ROW_ID } });
  if (!row) return null;
  return {
    name: row.name,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret: openSecretFor(row.clientSecretEnc, row.issuer, row.issuer, "The stored client secret"),
    scopes: row.scopes.split(" ").filter(Boolean),
    groupsClaim: row.groupsClaim,
    tokenOrigin: row.tokenOrigin,
    trustedDomains: row.trustedDomains.split(" ").filter(Boolean),
    rulesManageAll: row.rulesManageAll,
    version: row.updatedAt.toISOString(),
  };
}

/** "Test discovery": what the issuer offers, or a 4xx AppError saying what is wrong. Stores nothing. */
export async function testDiscovery(issuer: string, tokenOrigin?: string | null): Promise<DiscoveredIssuer> {
  return discoverIssuer(issuer, { tokenOrigin });
}

/** Saves the provider after its discovery succeeds (nothing is stored when it fails). */
export async function saveSsoProvider(actor: Actor, input: SsoProviderInput): Promise<DiscoveredIssuer> {
  const discovered = await discoverIssuer(input.issuer, { tokenOrigin: input.tokenOrigin });
  const prisma = await db();
  const stored = await prisma.ssoProvider.findUnique({ where: { id: ROW_ID } });
  const secret = writeOnly("clientSecret", input.clientSecret, {
    clear: input.clearSecret === "on",
    stored: stored?.clientSecretEnc ?? undefined,
    moved: secretMoved(stored?.clientSecretEnc, stored?.issuer, input.issuer),
  });
  const clientSecretEnc = input.clientSecret ? sealSecret(input.clientSecret, input.issuer) : (secret ?? null);
  const { name, issuer, clientId, scopes, groupsClaim, trustedDomains } = input;
  const choices = { tokenOrigin: input.tokenOrigin ?? null, trustedDomains, rulesManageAll: input.rulesManageAll === "on" };
  const data = { name, issuer, clientId, clientSecretEnc, scopes, groupsClaim, ...choices };
  await audited(actor, (tx) => tx.ssoProvider.upsert({ where: { id: ROW_ID }, create: { id: ROW_ID, ...data }, update: data }), {
    action: stored ? "sso.provider.update" : "sso.provider.create",
    targetType: "sso_provider",
    targetId: ROW_ID,
    data: { name, issuer, clientId, scopes, groupsClaim, ...choices, secret: input.clientSecret ? "replaced" : clientSecretEnc ? "kept" : "none" },
  });
  return discovered;
}
