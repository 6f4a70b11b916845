// What a provider said about a refused or failed request: the message of its JSON error body when it
// sent one (OpenAI's and Anthropic's `{"error":{"message"}}`, or a bare `{"error":"..."}`), else the
// AI SDK's own message. Cut to 300 characters of body.
import type { APICallError } from "@ai-sdk/provider";

export function upstreamDetail(err: APICallError): string {
  const body = err.responseBody?.slice(0, 300);
  try {
    const parsed = body ? (JSON.parse(body) as { error?: { message?: string } | string }) : undefined;
    const msg = typeof parsed?.error === "string" ? parsed.error : parsed?.error?.message;
    if (msg) return msg;
  } catch {
    /* not JSON */
  }
  return err.message;
}
