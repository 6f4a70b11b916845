// Why talking to an MCP server failed, as a kind a person (and the tool error codes) can act on:
// unreachable, an HTTP status, a protocol error, a timeout, a setting this instance refuses, or a
// member's own credential that is missing or refused (they connect their account again).
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  InsufficientScopeError,
  IssuerMismatchError,
  OAuthClientFlowError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { CONNECTION_CLOSED } from "./dropped-calls";
import { AuthorizationServerUnavailable, ConnectRequired } from "./oauth-provider";

export type McpFailureKind = "unreachable" | "http" | "protocol" | "timeout" | "config" | "aborted" | "auth";

const LABEL: Record<McpFailureKind, string> = {
  unreachable: "Unreachable",
  http: "HTTP error",
  protocol: "Protocol error",
  timeout: "Timeout",
  config: "Not allowed",
  aborted: "Aborted",
  auth: "Connect your account",
};

export class McpFailure extends Error {
  constructor(
    readonly kind: McpFailureKind,
    readonly detail: string,
    readonly status?: number,
    readonly rpcCode?: number,
    /** kind "auth": the scope the server asked for (a step-up), for the next Connect. */
    readonly scope?: string,
  ) {
    super(`${LABEL[kind]}: ${detail}`);
    this.name = "McpFailure";
  }
}

const NETWORK =
  /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EPIPE|socket hang up|fetch failed|other side closed|ENOENT|EACCES/;

type Cause = { message?: string; code?: unknown; cause?: unknown };

/** `err` and what caused it, outermost first (four deep at most). */
function causes(err: unknown): Cause[] {
  const chain: Cause[] = [];
  for (let e = err as Cause | undefined; e && chain.length < 4; e = e.cause as Cause | undefined) chain.push(e);
  return chain;
}

function causeText(err: unknown): string {
  const parts: string[] = [];
  for (const x of causes(err)) {
    if (x.message && !parts.includes(x.message)) parts.push(x.message);
    if (typeof x.code === "string" && !parts.some((p) => p.includes(x.code as string))) parts.push(x.code);
  }
  return parts.join(": ") || String(err);
}

/** The address rules' refusal (outbound-fetch.ts) somewhere in the causes of `err`, if any. */
function refusal(err: unknown): string | undefined {
  return causes(err).find((x) => x.code === "EPARLEYREFUSED")?.message;
}

/**
 * The SDK's OAuth flow failures. The text of an issuer mismatch is fixed here: what the callback or
 * the metadata said is the other side's and is never shown.
 */
function oauthFailure(err: unknown, what: string): McpFailure | undefined {
  if (err instanceof IssuerMismatchError || err instanceof AuthorizationServerMismatchError) {
    return new McpFailure("auth", `The sign-in for ${what} did not come from the authorization server it started at, so nothing was kept. Connect again.`);
  }
  if (err instanceof InsufficientScopeError)
    return new McpFailure("auth", `${what} needs more access than you gave it. Connect again.`, 403, undefined, err.requiredScope);
  if (err instanceof InsecureTokenEndpointError)
    return new McpFailure(
      "config",
      `The authorization server of ${what} takes tokens over plain HTTP on a public address, which Parley does not send credentials to.`,
    );
  if (err instanceof OAuthClientFlowError) return new McpFailure("auth", `Connecting your account to ${what} failed (${err.message}).`);
  return undefined;
}

/** Classifies anything thrown while connecting to or calling a server. */
export function classifyFailure(err: unknown, what = "the server"): McpFailure {
  // Already classified, maybe wrapped by the SDK: kept as it is (its text would otherwise say the kind twice).
  const classified = causes(err).find((x) => x instanceof McpFailure);
  if (classified) return classified as McpFailure;
  if (err instanceof ConnectRequired) return new McpFailure("auth", err.message, undefined, undefined, err.scope);
  // Not the member's credential: it is kept, and works again once the authorization server answers.
  if (err instanceof AuthorizationServerUnavailable) return new McpFailure("unreachable", err.message);
  if (err instanceof UnauthorizedError) return new McpFailure("auth", `${what} refused your credential (${err.message || "unauthorized"}).`, 401);
  const oauth = oauthFailure(err, what);
  if (oauth) return oauth;
  const e = err as { name?: string; code?: unknown; message?: string } | undefined;
  if (e?.name === "TimeoutError") return new McpFailure("timeout", `${what} did not answer in time.`);
  if (e?.name === "AbortError") return new McpFailure("aborted", "The call was stopped.");
  if (err instanceof SdkHttpError) {
    const status = err.status;
    if (status === 401 || status === 403) return new McpFailure("auth", `${what} refused the credential (HTTP ${status}).`, status);
    if (status >= 100 && status < 600) return new McpFailure("http", `HTTP ${status} from ${what}: ${causeText(err)}`, status);
  }
  if (err instanceof SdkError) {
    if (err.code === SdkErrorCode.RequestTimeout) return new McpFailure("timeout", `${what} did not answer in time.`);
    if (err.code === SdkErrorCode.ConnectionClosed || err.code === SdkErrorCode.NotConnected || err.code === SdkErrorCode.SendFailed) {
      const refusedHere = refusal(err);
      if (refusedHere) return new McpFailure("config", refusedHere);
      return new McpFailure("unreachable", `the connection to ${what} closed (${causeText(err)}).`);
    }
    if (err.code === SdkErrorCode.EraNegotiationFailed) {
      const refusedHere = refusal(err);
      if (refusedHere) return new McpFailure("config", refusedHere);
      if (NETWORK.test(causeText(err))) return new McpFailure("unreachable", causeText(err));
    }
    return new McpFailure("protocol", err.message);
  }
  if (err instanceof ProtocolError) {
    if (err.code === CONNECTION_CLOSED) return new McpFailure("unreachable", `the connection to ${what} closed (${err.message}).`, undefined, err.code);
    return new McpFailure("protocol", err.message, undefined, err.code);
  }
  const refused = refusal(err);
  if (refused) return new McpFailure("config", refused);
  const name = e?.name ?? "";
  const text = causeText(err);
  // StreamableHTTPError / SseError carry the HTTP status as a numeric code.
  if ((e?.code === 401 || e?.code === 403) && /HTTP|Streamable|SSE/i.test(`${name} ${text} ${(err as object | undefined)?.constructor?.name}`)) {
    return new McpFailure("auth", `${what} refused the credential (HTTP ${e.code}).`, e.code);
  }
  if (
    typeof e?.code === "number" &&
    e.code >= 100 &&
    e.code < 600 &&
    /HTTP|SSE|Streamable/i.test(`${name} ${text} ${(err as object | undefined)?.constructor?.name}`)
  ) {
    return new McpFailure("http", `HTTP ${e.code} from ${what}: ${text}`, e.code);
  }
  const status = /\bHTTP (\d{3})\b/.exec(text);
  if (status) return new McpFailure("http", text, Number(status[1]));
  if (NETWORK.test(text)) return new McpFailure("unreachable", text);
  if (/Unexpected content type|JSON|parse|Invalid|schema/i.test(text)) return new McpFailure("protocol", text);
  return new McpFailure("protocol", text);
}
