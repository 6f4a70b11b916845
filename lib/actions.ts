// Server actions return a plain state object for their form instead of throwing: the message, the
// per-field errors and the HTTP-like status. Used by every action in app/.
import { ZodError } from "zod";
import { AppError } from "./errors";
import { zodFieldErrors } from "./validation";

export type ActionState = {
  ok: boolean;
  status?: number;
  message?: string;
  fields?: Record<string, string>;
  /** Echo of non-secret inputs, so a rejected form keeps what the person typed. */
  values?: Record<string, string>;
  data?: Record<string, string>;
};

/**
 * Runs an action and turns what it throws into a state. With `form`, a rejected state echoes its
 * inputs, less passwords, `$`-prefixed (React) entries and the `secret` field names.
 */
export async function runAction(fn: () => Promise<ActionState | void>, form?: FormData, secret: readonly string[] = []): Promise<ActionState> {
  const values = form ? keepValues(form, secret) : undefined;
  try {
    return (await fn()) ?? { ok: true };
  } catch (err) {
    if (err instanceof ZodError) return { ok: false, status: 400, message: "Please correct the highlighted fields.", fields: zodFieldErrors(err), values };
    if (err instanceof AppError) return { ok: false, status: err.status, message: err.message, fields: err.fieldErrors, values };
    console.error("[action] unexpected error:", err);
    return { ok: false, status: 500, message: "Something went wrong on the server. Try again.", values };
  }
}

function keepValues(form: FormData, secret: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string" && !/password/i.test(k) && !k.startsWith("$") && !secret.includes(k)) out[k] = v;
  return out;
}
