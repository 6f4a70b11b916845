// One zod schema per admin form about providers and models, used by the server actions (and so by the
// forms, which show the field errors they return). Bad input becomes field errors; nothing is saved.
import { z } from "zod";
import { config } from "../config";
import { judgeUrl } from "../security/address-policy";
import { parseHeaderLines } from "../validation";
import { KIND_IDS, kindInfo } from "./kinds";

export { parseHeaderLines };

const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());
const optionalText = (max: number, tooLong: string) => z.preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.string().max(max, tooLong));

const httpUrl = z
  .string()
  .max(500, "At most 500 characters.")
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "Enter a valid http:// or https:// URL (without a user name or password in it).");

export const providerFormSchema = z
  .object({
    name: z.string().trim().min(1, "Enter a name.").max(100, "At most 100 characters."),
    kind: z.enum(KIND_IDS, { error: "Choose a provider kind." }),
    baseUrl: z.preprocess((v) => (typeof v === "string" ? v.trim() : ""), z.union([z.literal(""), httpUrl])),
    // Write-only: empty means "keep the stored key" when editing, "no key" when creating.
    apiKey: optionalText(4000, "At most 4000 characters."),
    clearApiKey: checkbox,
    headers: optionalText(20_000, "Too long."),
    clearHeaders: checkbox,
    enabled: checkbox,
  })
  .superRefine((v, ctx) => {
    if (kindInfo(v.kind).baseUrlRequired && !v.baseUrl) {
      ctx.addIssue({ code: "custom", path: ["baseUrl"], message: "This kind of provider needs a base URL." });
    }
    const target = v.baseUrl ? judgeUrl(v.baseUrl, config().PARLEY_ALLOW_PRIVATE_URLS) : { ok: true as const };
    if (!target.ok) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: target.reason });
    if (v.headers) {
      const { error } = parseHeaderLines(v.headers);
      if (error) ctx.addIssue({ code: "custom", path: ["headers"], message: error });
    }
  });
export type ProviderFormInput = z.infer<typeof providerFormSchema>;

/** Model.providerOptions: a JSON object keyed by provider name, e.g. {"openai": {"reasoningEffort": "low"}}. */
const providerOptionsText = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() : ""),
  z
    .string()
    .max(8000, "At most 8000 characters.")
    .transform((s, ctx) => {
      if (!s) return null;
      let value: unknown;
      try {
        value = JSON.parse(s);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: `Not valid JSON: ${(err as Error).message}` });
        return z.NEVER;
      }
      const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
      if (!isObject(value) || !Object.values(value).every(isObject)) {
        ctx.addIssue({ code: "custom", message: 'Write an object of objects keyed by provider, e.g. {"openai": {"reasoningEffort": "low"}}.' });
        return z.NEVER;
      }
      return value as Record<string, Record<string, unknown>>;
    }),
);

const contextWindow = z.preprocess(
  (v) => (v === "" || v === undefined || v === null ? null : Number(v)),
  z.number({ error: "Enter a number of tokens." }).int("Enter a whole number.").min(1, "At least 1.").max(100_000_000, "Too large.").nullable(),
);

/** A price in US dollars per million tokens; empty: not known. */
const price = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().replace(/^\$/, "") : v),
  z
    .union([z.literal(""), z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, "Enter dollars per million tokens, e.g. 2.50.")])
    .optional()
    .transform((s) => (s ? Number(s) : null)),
);

export const modelFormSchema = z.object({
  modelId: z.string().trim().min(1, "Enter the provider's model id.").max(200, "At most 200 characters."),
  displayName: z.string().trim().max(100, "At most 100 characters.").optional().default(""),
  toolCalling: z.enum(["native", "prompt", "none"], { error: "Choose native, prompt or none." }).default("native"),
  vision: checkbox,
  reasoning: checkbox,
  webSearch: checkbox,
  enabled: checkbox,
  contextWindow,
  providerOptions: providerOptionsText,
  inputPrice: price,
  cachedInputPrice: price,
  outputPrice: price,
});
export type ModelFormInput = z.infer<typeof modelFormSchema>;

export const enableModelsSchema = z.object({
  modelIds: z.array(z.string().trim().min(1).max(200)).min(1, "Choose at least one model.").max(500),
});

export const teamModelsSchema = z.object({
  defaultModelId: z.string().trim().max(64).optional().default(""),
  fallbackModelId: z.string().trim().max(64).optional().default(""),
});
