// The browser's one way to call Parley's JSON API: sends a JSON body (a FormData as it is), reads the
// JSON answer, and throws an ApiError for anything else: a refusal carries the server's status, code,
// message and field errors (lib/http.ts writes them as { error: { code, message, fields? } }); no
// answer at all, or an answer that is not that envelope (an HTML error page, a proxy's 502), carries a
// plain message instead. Streams (a chat's turns) read their responses themselves.

/** The codes of failures that are not the server's own words. */
const UNREACHABLE = "Unreachable";
const NOT_THE_ENVELOPE = "BadResponse";

export class ApiError extends Error {
  constructor(
    /** The HTTP status; 0 when no answer came through. */
    readonly status: number,
    /** The server's code (lib/errors.ts: "Conflict", "InvalidInput", …), or "Unreachable" / "BadResponse". */
    readonly code: string,
    message: string,
    /** The server's message for each field of the request it refused. */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** No answer came through: offline, the server down, the connection cut. */
  get unreachable(): boolean {
    return this.code === UNREACHABLE;
  }

  /** The code and message are the server's own (its error envelope), not stand-ins. */
  get fromServer(): boolean {
    return this.code !== UNREACHABLE && this.code !== NOT_THE_ENVELOPE;
  }
}

/** The server's own message for a refused request; undefined for any other failure. */
export function serverMessage(err: unknown): string | undefined {
  return err instanceof ApiError && err.fromServer ? err.message : undefined;
}

export type JsonRequest = {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData (a file upload) as it is. */
  body?: unknown;
  cache?: RequestCache;
};

/** The parsed JSON answer of a 2xx (undefined when it has no body); throws an ApiError otherwise. */
export async function fetchJson<T>(url: string, { method = "GET", body, cache }: JsonRequest = {}): Promise<T> {
  const init: RequestInit = { method, cache };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, init);
    text = await res.text();
  } catch {
    throw new ApiError(0, UNREACHABLE, "Could not reach the server.");
  }
  const parsed = parseJson(text);
  if (res.ok) {
    if (!text) return undefined as T;
    if (parsed.ok) return parsed.value as T;
    throw new ApiError(res.status, NOT_THE_ENVELOPE, "The server's answer could not be read.");
  }
  const error = parsed.ok ? (parsed.value as Envelope | null)?.error : undefined;
  if (typeof error?.message !== "string") throw new ApiError(res.status, NOT_THE_ENVELOPE, `The server could not answer (HTTP ${res.status}).`);
  throw new ApiError(res.status, typeof error.code === "string" ? error.code : "Error", error.message, error.fields);
}

/** How lib/http.ts writes a refusal. */
type Envelope = { error?: { code?: unknown; message?: unknown; fields?: Record<string, string> } };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
