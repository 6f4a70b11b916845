// Server actions' plain parts: the check at a form action's entry (`checkForm`: the arguments are a
// state and a FormData; every field a bounded string without NUL; named ids in their shape) and the
// state it returns instead of throwing: the message, the per-field errors, the HTTP-like status and
// the echo of what was typed. How an action is run (the role check, Next's interrupts, revalidation,
// redirects) is app/_server/actions.ts' `defineAction`.
import { z, ZodError } from "zod";
import { AppError, clientError } from "./errors";
import { idField, zodFieldErrors } from "./validation";

export type ActionState = {
  ok: boolean;
  status?: number;
  message?: string;
  fields?: Record<string, string>;
  /** Echo of non-secret inputs, so a rejected form keeps what the person typed. */
  values?: Record<string, string>;
  data?: Record<string, string>;
};

const MAX_FIELDS = 500;
const MAX_FIELD_CHARS = 100_000;
const MAX_NAME_CHARS = 200;

/** Optional id fields of a form: absent, empty or in the shape of an id. */
export function idFields(...names: string[]): z.ZodRawShape {
  return Object.fromEntries(names.map((n) => [n, idField.or(z.literal("")).optional()]));
}

const refused = (message: string, fields?: Record<string, string>): ActionState => ({ ok: false, status: 400, message, fields });

/**
 * The entry check of a form action `(prevState, form)`: returns the refusal (400) when the call is
 * not one its form can make, else undefined. `shape` checks named fields (e.g. `idFields("serverId")`).
 */
export function checkForm(form: unknown, shape: z.ZodRawShape = {}): ActionState | undefined {
  if (!(form instanceof FormData)) return refused("Invalid request: expected the form's fields.");
  let count = 0;
  for (const [name, value] of form.entries()) {
    if (++count > MAX_FIELDS) return refused("Invalid request: too many fields.");
    if (name.length > MAX_NAME_CHARS || name.includes("\0")) return refused("Invalid request: a field name is not valid.");
    if (typeof value !== "string") return refused("Invalid request: files are not accepted here.");
    if (value.length > MAX_FIELD_CHARS) return refused("A field is too long.", { [name]: `At most ${MAX_FIELD_CHARS} characters.` });
    if (value.includes("\0")) return refused("Please correct the highlighted fields.", { [name]: "Contains a character that is not allowed (NUL)." });
  }
  const parsed = z.looseObject(shape).safeParse(Object.fromEntries(form.entries()));
  return parsed.success ? undefined : refused("Invalid request.", zodFieldErrors(parsed.error));
}

/**
 * What a refusal of an action that returns no state answers: lib's client errors, and invalid input as
 * a 400; undefined for anything else (a server error, or one of Next's own interrupts).
 */
export function refusalOf(err: unknown): AppError | undefined {
  return clientError(err) ?? (err instanceof ZodError ? new AppError("InvalidInput", 400, "Invalid request.") : undefined);
}

/** The state for what a form action threw; `values` is the echo of the form (echoedValues). */
export function errorState(err: unknown, values?: Record<string, string>): ActionState {
  if (err instanceof ZodError) return { ok: false, status: 400, message: "Please correct the highlighted fields.", fields: zodFieldErrors(err), values };
  const known = clientError(err);
  if (known) return { ok: false, status: known.status, message: known.message, fields: known.fieldErrors, values };
  console.error("[action] unexpected error:", err);
  return { ok: false, status: 500, message: "Something went wrong on the server. Try again.", values };
}

/** What a rejected form keeps: its string fields, less passwords, `$`-prefixed (React) entries and the `secret` names. */
export function echoedValues(form: FormData, secret: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !/password/i.test(k) && !k.startsWith("$") && !secret.includes(k)) out[k] = v;
  return out;
}
