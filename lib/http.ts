// Errors to HTTP responses, in one place: AppError keeps its status and code; anything else is a 500
// whose details go to the server log, never to the client.
import { ZodError } from "zod";
import { AppError, NotFound, clientError } from "./errors";
import { idField, zodFieldErrors } from "./validation";

export function errorResponse(err: unknown): Response {
  err = clientError(err) ?? err;
  if (err instanceof ZodError) {
    return Response.json({ error: { code: "InvalidInput", message: "Invalid request.", fields: zodFieldErrors(err) } }, { status: 400 });
  }
  if (err instanceof AppError) {
    const headers: Record<string, string> = {};
    if (err.retryAfterSeconds) headers["Retry-After"] = String(err.retryAfterSeconds);
    return Response.json(
      { error: { code: err.code, message: err.message, ...(err.fieldErrors ? { fields: err.fieldErrors } : {}) } },
      { status: err.status, headers },
    );
  }
  console.error("[http] unexpected error:", err);
  return Response.json({ error: { code: "Internal", message: "Something went wrong on the server." } }, { status: 500 });
}

/** Wraps a route handler so thrown errors become responses. */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await fn(...args);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

/** A route's params, each an id in its shape; 404 (nothing has that id) when one is not. */
export async function idParams<K extends string>(params: Promise<Record<K, string>>): Promise<Record<K, string>> {
  const values = await params;
  for (const v of Object.values<string>(values)) if (!idField.safeParse(v).success) throw NotFound();
  return values;
}
