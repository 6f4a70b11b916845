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
