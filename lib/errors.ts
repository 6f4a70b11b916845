// Typed errors with a code and an HTTP status; lib/http.ts turns them into responses in one place.
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    /** Seconds to wait before trying again (429, 503): sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const Unauthorized = (message = "Sign in to continue.") => new AppError("Unauthorized", 401, message);
export const Forbidden = (message = "Only team admins can do this.") => new AppError("Forbidden", 403, message);
/** Also for things of another team: 404, so ids do not leak. */
export const NotFound = (message = "Not found.") => new AppError("NotFound", 404, message);
export const Conflict = (message: string, fieldErrors?: Record<string, string>) => new AppError("Conflict", 409, message, fieldErrors);
export const Invalid = (message: string, fieldErrors?: Record<string, string>) => new AppError("InvalidInput", 400, message, fieldErrors);
export const TooMany = (message: string, retryAfterSeconds?: number) => new AppError("RateLimited", 429, message, undefined, retryAfterSeconds);

/** The server is at capacity for now: 503 with Retry-After. */
export const Busy = (message: string, retryAfterSeconds: number) => new AppError("Busy", 503, message, undefined, retryAfterSeconds);

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/**
 * PostgreSQL's refusals of a value (a NUL byte: 22021; a malformed literal: 22P02; out of range:
 * 22003; too long: 22001) and Prisma's "inconsistent column data" (P2023) are bad input, not server
 * faults: 400. Input validation refuses these first; this is the second wall.
 */
function badInputFromDatabase(err: unknown): AppError | undefined {
  const codes = new Set(["22021", "22P02", "22003", "22001", "P2023"]);
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === "object"; i++) {
    const o = e as { code?: unknown; originalCode?: unknown; meta?: { code?: unknown }; cause?: unknown; message?: unknown };
    for (const c of [o.code, o.originalCode, o.meta?.code])
      if (typeof c === "string" && codes.has(c)) return Invalid("The request contains a value that cannot be stored.");
    if (typeof o.message === "string" && /invalid byte sequence for encoding/i.test(o.message))
      return Invalid("The request contains a value that cannot be stored.");
    e = o.cause;
  }
  return undefined;
}

/**
 * What a thrown value means for the caller, when it is the caller's fault: an AppError; a database
 * refusal of a value (above); or a library's HTTP error with a 4xx `statusCode` (better-auth's
 * APIError). Undefined for server faults, which stay 500s and are logged.
 */
export function clientError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const db = badInputFromDatabase(err);
  if (db) return db;
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) {
    const message = (err as { body?: { message?: unknown } }).body?.message;
    return new AppError("Refused", status, typeof message === "string" && message ? message : "The request was refused.");
  }
  return undefined;
}
