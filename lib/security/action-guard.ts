// Server-action requests, checked in proxy.ts before Next.js decodes them: Next answers 500 to a body
// over its limit and to a body it cannot decode, before any action code runs. So a body over the
// limit is 413, and one that is not the shape React's client sends (a JSON array, or multipart form
// data whose fields are valid, nesting bounded) is 400. What the arguments mean is checked by each
// action's own entry (lib/actions.ts).
import type { Refusal } from "./request-guard";

/** The largest server-action body (Next's serverActions.bodySizeLimit is set to the same). */
export const ACTION_BODY_LIMIT = 1024 * 1024;
const MAX_DEPTH = 32;

export type ActionRequestInfo = { method: string; pathname: string; contentType: string | null; nextAction: string | null };

/** Whether Next.js would treat the request as a server action (it does for any multipart POST to a page). */
export function isActionRequest(r: ActionRequestInfo): boolean {
  if (r.method.toUpperCase() !== "POST" || r.pathname.startsWith("/api/")) return false;
  const type = (r.contentType ?? "").toLowerCase();
  return r.nextAction !== null || type.startsWith("multipart/form-data") || type.startsWith("application/x-www-form-urlencoded");
}

export const tooLarge = (): Refusal => ({ status: 413, code: "TooLarge", message: `The request body is larger than ${ACTION_BODY_LIMIT} bytes.` });
const invalid = (why: string): Refusal => ({ status: 400, code: "InvalidInput", message: `Invalid server action request: ${why}.` });

/** A declared Content-Length over the limit (checked before the body is read). */
export function declaredTooLarge(contentLength: string | null): boolean {
  return contentLength !== null && Number(contentLength) > ACTION_BODY_LIMIT;
}

/** Checks a server-action body (already read, at most the limit). */
export async function actionBodyProblem(body: ArrayBuffer, r: ActionRequestInfo): Promise<Refusal | undefined> {
  if (body.byteLength > ACTION_BODY_LIMIT) return tooLarge();
  const type = (r.contentType ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": r.contentType! } }).formData();
    } catch {
      return invalid("the form data cannot be parsed");
    }
    for (const [name, value] of form.entries()) {
      if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return invalid("a field contains a NUL byte");
      // Fields named by a number hold the encoded arguments (React's reply format): JSON.
      if (r.nextAction !== null && /^\d+$/.test(name) && typeof value === "string") {
        const problem = jsonProblem(value);
        if (problem) return invalid(problem);
      }
    }
    return undefined;
  }
  if (type.startsWith("application/x-www-form-urlencoded")) return undefined; // Next ignores these
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return invalid("the body is not UTF-8");
  }
  const problem = jsonProblem(text, true);
  return problem ? invalid(problem) : undefined;
}

/** Reply text: JSON, nested at most MAX_DEPTH deep, no NUL; the root of a plain body is an array. */
export function jsonProblem(text: string, rootArray = false): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) {
        if (text.startsWith("u0000", i + 1)) return "a string contains a NUL byte";
        i++;
      } else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_DEPTH) return `the arguments are nested deeper than ${MAX_DEPTH} levels`;
    } else if (c === 93 || c === 125) depth--;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return "the arguments are not valid JSON";
  }
  if (rootArray && !Array.isArray(value)) return "the arguments are not a list";
  return undefined;
}
