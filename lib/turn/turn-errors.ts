// What went wrong in a turn, as a locale-independent code and a message a person can act on.
import { APICallError } from "@ai-sdk/provider";
import { NoOutputGeneratedError, RetryError } from "ai";
import { AppError } from "../errors";
import { ProviderStreamError, ProviderTimeoutError } from "../providers/stream-guard";
import { upstreamDetail } from "../providers/upstream-detail";

export type TurnError = { code: string; message: string };

export function classifyTurnError(err: unknown): TurnError {
  if (RetryError.isInstance(err)) return classifyTurnError(err.lastError);
  if (err instanceof AppError) return { code: err.code, message: err.message };
  if (err instanceof ProviderTimeoutError) return { code: "ProviderTimeout", message: err.message };
  if (err instanceof ProviderStreamError) return { code: "InvalidResponse", message: err.message };
  // AI SDK 7: a model stream that ended with neither output nor a finish (a cut connection, say).
  if (NoOutputGeneratedError.isInstance(err))
    return { code: "ProviderUnavailable", message: "The model provider ended its answer before sending anything. Try again." };
  if (APICallError.isInstance(err)) {
    const status = err.statusCode;
    if (status === undefined) return { code: "ProviderUnavailable", message: `Could not reach the model provider: ${err.message}` };
    if (status === 401 || status === 403) return { code: "ProviderAuth", message: `The provider refused the request (HTTP ${status}): ${upstreamDetail(err)}` };
    if (status === 429) return { code: "ProviderRateLimited", message: `The provider is rate limiting requests (HTTP 429): ${upstreamDetail(err)}` };
    if (status >= 500) return { code: "ProviderError", message: `The provider failed (HTTP ${status}): ${upstreamDetail(err)}` };
    return { code: "ProviderRejected", message: `The provider rejected the request (HTTP ${status}): ${upstreamDetail(err)}` };
  }
  const e = err as { name?: string; message?: string; cause?: unknown } | undefined;
  const name = e?.name ?? "";
  const message = e?.message ?? String(err);
  if (name === "TimeoutError" || /timed? ?out|timeout/i.test(message)) {
    return { code: "ProviderTimeout", message: "The model provider stopped answering (timed out). Try again." };
  }
  if (/ECONNREFUSED|ENOTFOUND|fetch failed|socket|ECONNRESET/i.test(message)) {
    return { code: "ProviderUnavailable", message: `Could not reach the model provider: ${message}` };
  }
  if (name.includes("TypeValidation") || name.includes("JSONParse") || name.includes("InvalidResponse") || /JSON|parse/i.test(message)) {
    return { code: "InvalidResponse", message: "The model provider sent a response Parley could not read." };
  }
  return { code: "Internal", message: "The reply failed because of an error on the server." };
}

/**
 * A turn error as the text of the stream's `error` chunk: JSON in the shape of an error response
 * (`{"error":{"code","message"}}`), which the browser shows as it shows any refused request, and which
 * turn-stream.ts reads back into the stored `data-error` part.
 */
export function turnErrorText(err: TurnError): string {
  return JSON.stringify({ error: err });
}

export function parseTurnErrorText(text: string): TurnError {
  try {
    const e = (JSON.parse(text) as { error?: TurnError }).error;
    if (typeof e?.code === "string" && typeof e.message === "string") return { code: e.code, message: e.message };
  } catch {
    /* not ours */
  }
  return { code: "Internal", message: text };
}
