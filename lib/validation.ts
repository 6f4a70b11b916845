// Shared input rules (zod 4) and the conversion of zod issues into per-field messages for forms.
import { z, type ZodError } from "zod";

export const nameField = z.string().trim().min(1, "Enter a name.").max(100, "At most 100 characters.");
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "Enter an email address.")
  .max(254, "At most 254 characters.")
  .pipe(z.email("Enter a valid email address."));
export const passwordField = z.string().min(8, "At least 8 characters.").max(128, "At most 128 characters.");
/** Ids of rows (cuid and better-auth ids): letters, digits, `_` and `-`, at most 64. */
export const idField = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "Not a valid id.");
/** Invite tokens and other url-safe secrets. */
export const tokenField = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, "Not a valid link.");

const NUL = "\0";
/** True when a string anywhere in `value` (nested up to `maxDepth`) holds a NUL byte, or nesting goes deeper. */
export function hasNulOrTooDeep(value: unknown, maxDepth = 32): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes(NUL)) return true;
    } else if (v !== null && typeof v === "object") {
      if (depth >= maxDepth) return true;
      for (const [k, child] of Object.entries(v)) {
        if (k.includes(NUL)) return true;
        stack.push([child, depth + 1]);
      }
    }
  }
  return false;
}

export const teamNameField = z.string().trim().min(1, "Enter a team name.").max(80, "At most 80 characters.");

export function zodFieldErrors(err: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join(".") || "form";
    out[key] ??= issue.message;
  }
  return out;
}

/** Parses FormData (or a plain object) with a schema; throws ZodError on failure. */
export function parseForm<T extends z.ZodType>(schema: T, input: FormData | Record<string, unknown>): z.infer<T> {
  const data = input instanceof FormData ? Object.fromEntries(input.entries()) : input;
  return schema.parse(data);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ALWAYS_RESERVED = ["host", "content-length", "content-type", "connection", "transfer-encoding"];

/**
 * "Name: value" per line -> a header map, or a message for the first bad line. Headers Parley sets
 * itself (the usual transport ones, plus `reserved`) are refused.
 */
export function parseHeaderLines(text: string, reserved: readonly string[] = []): { headers?: Record<string, string>; error?: string } {
  const refused = new Set([...ALWAYS_RESERVED, ...reserved]);
  const headers: Record<string, string> = {};
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length > 20) return { error: "At most 20 headers." };
  for (const [i, line] of lines.entries()) {
    const at = line.indexOf(":");
    const name = at > 0 ? line.slice(0, at).trim() : "";
    const value = at > 0 ? line.slice(at + 1).trim() : "";
    if (!HEADER_NAME.test(name) || !value) return { error: `Line ${i + 1}: write one header per line as "Name: value".` };
    if (refused.has(name.toLowerCase())) return { error: `Line ${i + 1}: ${name} is set by Parley itself.` };
    if (/[\r\n\0]/.test(value) || value.length > 4000) return { error: `Line ${i + 1}: the value is not a valid header value.` };
    headers[name] = value;
  }
  return { headers };
}
