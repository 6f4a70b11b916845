// Server-action requests, checked in proxy.ts before Next.js decodes them: Next answers 500 to a body
// over its limit and to a body it cannot decode, before any action code runs. So a body over the
// limit is 413, and one that is not the shape React's client sends (a JSON array, or multipart form
// data whose fields are valid, nesting bounded) is 400. What the arguments mean is checked by each
// action's own entry (defineAction, app/_server/actions.ts).
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
    // React's reply: field "0" holds the arguments; without it Next's decoder waits for it until the
    // body ends and answers 500 (an empty `--b--` body parses as a form with no fields).
    if (r.nextAction !== null && !form.has("0")) return invalid("the form data holds no arguments");
    // Fields named by a (hex) number hold the encoded arguments and their parts (React's reply format).
    const parts = new Set([...form.keys()].filter((k) => /^[0-9a-f]+$/.test(k)).map((k) => parseInt(k, 16)));
    for (const [name, value] of form.entries()) {
      if (name.includes("\0") || (typeof value === "string" && value.includes("\0"))) return invalid("a field contains a NUL byte");
      if (typeof value !== "string") continue;
      let problem: string | undefined;
      if (r.nextAction !== null && /^[0-9a-f]+$/.test(name)) problem = jsonProblem(value, name === "0", parts);
      // A form posted without JavaScript: `$ACTION_<n>:<part>` fields hold the bound arguments.
      const bound = /^\$ACTION_(\d+):([0-9a-f]+)$/.exec(name);
      if (bound) problem = jsonProblem(value, bound[2] === "0", boundParts(form, bound[1]));
      if (problem) return invalid(problem);
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

function boundParts(form: FormData, n: string): Set<number> {
  const prefix = `$ACTION_${n}:`;
  return new Set([...form.keys()].filter((k) => k.startsWith(prefix)).map((k) => parseInt(k.slice(prefix.length), 16)));
}

/** Reply text: JSON, nested at most MAX_DEPTH deep, no NUL; the root of a plain body is an array. */
export function jsonProblem(text: string, rootArray = false, parts: ReadonlySet<number> = new Set()): string | undefined {
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
  if (rootArray && (value as unknown[]).length > MAX_ARGS) return `more than ${MAX_ARGS} arguments`;
  return referenceProblem(value, parts);
}

const MAX_ARGS = 100;

/**
 * Strings starting with `$` are references in React's reply format. Allowed: what the app's calls
 * produce (escaped `$$`, FormData `$K`, `$undefined`, numbers, dates, BigInts of at most 300 digits)
 * and references to parts present in the body. Refused: everything else (blobs, streams, typed
 * arrays, maps, sets, iterators, server and temporary references), which Next answers with a 500
 * when it is malformed or missing.
 */
function referenceProblem(root: unknown, parts: ReadonlySet<number>): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v[0] !== "$" || v.length < 2) continue;
      const rest = v.slice(2);
      const ok =
        v[1] === "$" ||
        /^\$K[0-9a-f]*$/.test(v) ||
        v === "$undefined" ||
        v === "$Infinity" ||
        v === "$-Infinity" ||
        v === "$NaN" ||
        v === "$-0" ||
        (v[1] === "D" && v.length < 64) ||
        /^\$n-?\d{1,300}$/.test(v) ||
        (v[1] === "@" && /^[0-9a-f]{1,8}$/.test(rest) && parts.has(parseInt(rest, 16))) ||
        (/^\$[0-9a-f]{1,8}(:[^:]+)*$/.test(v) && parts.has(parseInt(v.slice(1), 16)));
      if (!ok) return "the arguments hold a reference this app does not accept";
    } else if (v !== null && typeof v === "object") {
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return undefined;
}
