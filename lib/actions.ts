// Server actions: the checks at their entry and the state they return. A form action starts with
// `checkForm` (the arguments are a state and a FormData; every field a bounded string without NUL;
// named ids in their shape) and returns a plain state object for its form instead of throwing:
// the message, the per-field errors and the HTTP-like status. Actions that return no state run
// their body through `interrupts`, which turns refusals into real 401/403/404 responses.
import { notFound, forbidden, unauthorized, unstable_rethrow } from "next/navigation";
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
 * The entry check of an action called with plain arguments: parses them with `schema`, and answers
 * 404 (nothing of that shape exists) when they do not fit.
 */
export function checkArgs<T extends z.ZodType>(schema: T, args: unknown): z.infer<T> {
  const parsed = schema.safeParse(args);
  if (!parsed.success) notFound();
  return parsed.data;
}

/**
 * Runs the body of an action that returns no form state. Refusals become Next's interrupts (401,
 * 403, 404: real statuses, where a thrown error would be a 500); redirects pass through.
 */
export async function interrupts<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    unstable_rethrow(err);
    const known = clientError(err) ?? (err instanceof ZodError ? new AppError("InvalidInput", 400, "Invalid request.") : undefined);
    if (!known) throw err;
    if (known.status === 401) unauthorized();
    if (known.status === 403) forbidden();
    if (known.status < 500) notFound();
    throw err;
  }
}

/**
 * Runs an action and turns what it throws into a state. With `form`, a rejected state echoes its
 * inputs, less passwords, `$`-prefixed (React) entries and the `secret` field names.
 */
export async function runAction(fn: () => Promise<ActionState | void>, form?: FormData, secret: readonly string[] = []): Promise<ActionState> {
  const values = form instanceof FormData ? keepValues(form, secret) : undefined;
  try {
    return (await fn()) ?? { ok: true };
  } catch (err) {
    unstable_rethrow(err);
    if (err instanceof ZodError) return { ok: false, status: 400, message: "Please correct the highlighted fields.", fields: zodFieldErrors(err), values };
    const known = clientError(err);
    if (known) return { ok: false, status: known.status, message: known.message, fields: known.fieldErrors, values };
    console.error("[action] unexpected error:", err);
    return { ok: false, status: 500, message: "Something went wrong on the server. Try again.", values };
  }
}

function keepValues(form: FormData, secret: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !/password/i.test(k) && !k.startsWith("$") && !secret.includes(k)) out[k] = v;
  return out;
}
