// Rules on a call's arguments, set by admins on a tool's policy: a field matches a pattern (or not),
// is in a list (or not), or is above / below a number. The first rule that matches decides who
// approves the call (nobody, the member, an admin); none matching leaves the tool's policy. A rule's
// label names it on the card and in the audit log. Fields are dotted paths into the input.
import { z } from "zod";

const field = z
  .string()
  .trim()
  .min(1, "Name a field.")
  .max(200)
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, "Use a field name such as path or options.mode.");
const outcome = z.enum(["auto", "ask", "admin"]);
const base = { field, then: outcome };

/** A pattern that compiles, bounded so one rule cannot take a server down with backtracking. */
const pattern = z
  .string()
  .min(1, "Give a pattern.")
  .max(200)
  .refine((p) => {
    try {
      new RegExp(p, "u");
      return true;
    } catch {
      return false;
    }
  }, "Not a valid pattern (regular expression).");

export const ruleSchema = z.discriminatedUnion("op", [
  z.object({ ...base, op: z.enum(["matches", "not-matches"]), value: pattern }),
  z.object({ ...base, op: z.enum(["in", "not-in"]), value: z.array(z.string().max(200)).min(1).max(100) }),
  z.object({ ...base, op: z.enum(["above", "below"]), value: z.number().finite() }),
]);
export type ApprovalRule = z.infer<typeof ruleSchema>;
export const rulesSchema = z.array(ruleSchema).max(20, "At most 20 rules.");

const OP_WORDS: Record<ApprovalRule["op"], string> = {
  matches: "matches",
  "not-matches": "does not match",
  in: "is one of",
  "not-in": "is not one of",
  above: ">",
  below: "<",
};
const THEN_WORDS: Record<ApprovalRule["then"], string> = { auto: "run without asking", ask: "ask the member", admin: "an admin approves" };

/** How a rule reads on a card and in the audit log, e.g. `amount > 1000 → an admin approves`. */
export function ruleLabel(rule: ApprovalRule): string {
  const value = Array.isArray(rule.value) ? rule.value.join(", ") : rule.op === "matches" || rule.op === "not-matches" ? `/${rule.value}/` : String(rule.value);
  return `${rule.field} ${OP_WORDS[rule.op]} ${value} → ${THEN_WORDS[rule.then]}`;
}

/** The stored rules of a tool, or none when what is stored is not valid rules. */
export function readRules(stored: unknown): ApprovalRule[] {
  const parsed = rulesSchema.safeParse(stored ?? []);
  return parsed.success ? parsed.data : [];
}

function valueAt(input: unknown, path: string): unknown {
  let at: unknown = input;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object" || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

const asText = (v: unknown): string | undefined => (typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : undefined);

/** Whether a rule matches an input. A missing field never matches (a "not" rule neither). */
export function ruleMatches(rule: ApprovalRule, input: unknown): boolean {
  const v = valueAt(input, rule.field);
  if (v === undefined || v === null) return false;
  switch (rule.op) {
    case "matches":
    case "not-matches": {
      const text = asText(v);
      if (text === undefined) return false;
      const hit = new RegExp(rule.value, "u").test(text.slice(0, 10_000));
      return rule.op === "matches" ? hit : !hit;
    }
    case "in":
    case "not-in": {
      const text = asText(v);
      if (text === undefined) return false;
      return rule.value.includes(text) === (rule.op === "in");
    }
    case "above":
    case "below": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN;
      if (!Number.isFinite(n)) return false;
      return rule.op === "above" ? n > rule.value : n < rule.value;
    }
  }
}

/** The first rule that matches the input, with its label; undefined when none does. */
export function firstMatch(rules: readonly ApprovalRule[], input: unknown): { rule: ApprovalRule; label: string } | undefined {
  const rule = rules.find((r) => ruleMatches(r, input));
  return rule && { rule, label: ruleLabel(rule) };
}
