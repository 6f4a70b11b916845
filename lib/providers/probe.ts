// Talking to a provider outside a turn: "Test connection" and "Fetch models" both make one real
// request to its model list (GET {base}/models; Anthropic's /v1/models takes x-api-key), bounded by a
// timeout, through the guarded outbound fetch. A refusal is reported as its HTTP status and a short
// generic reason: never the body, which may come from an internal service.
import type { Provider } from "../db/generated/client";
import { OutboundRefused, outboundFetch } from "../security/outbound-fetch";
import { openJsonSecretFor, openSecretFor, SecretOriginError } from "../security/stored-secrets";
import { effectiveBaseUrl } from "./kinds";

const PROBE_TIMEOUT_MS = 10_000;

export type ProbeTarget = Pick<Provider, "kind" | "baseUrl" | "apiKeyEnc" | "headersEnc"> & {
  /** The base URL the stored secrets were saved with (legacy unbound ciphertexts); default: this one. */
  savedFor?: string | null;
};
export type ProbeResult = { ok: true; ms: number; models: string[] } | { ok: false; ms: number; status?: number; message: string };

/** The request headers, with secrets opened for `base` only (SecretOriginError otherwise). */
function requestHeaders(p: ProbeTarget, base: string): Record<string, string> {
  const savedFor = p.savedFor === undefined ? base : p.savedFor;
  const apiKey = openSecretFor(p.apiKeyEnc, base, savedFor, "The stored API key");
  const extra = openJsonSecretFor<Record<string, string>>(p.headersEnc, base, savedFor, "The stored headers") ?? {};
  const auth: Record<string, string> =
    p.kind === "anthropic"
      ? { "anthropic-version": "2023-06-01", ...(apiKey ? { "x-api-key": apiKey } : {}) }
      : apiKey
        ? { authorization: `Bearer ${apiKey}` }
        : {};
  return { accept: "application/json", ...auth, ...extra };
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

/** A short reason for a refusal, by status: what the admin can check, nothing the server said. */
function statusReason(status: number): string {
  if (status === 401 || status === 403) return "the provider refused the credentials. Check the API key.";
  if (status === 404) return "not found. Check the base URL (it usually ends in /v1).";
  if (status === 429) return "the provider is rate limiting. Try again later.";
  if (status >= 500) return "the provider had an error.";
  if (status >= 300 && status < 400) return "the provider answered with a redirect, which Parley does not follow. Check the base URL.";
  return "the provider refused the request.";
}

function networkMessage(err: unknown, url: string, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `No answer from ${url} within ${seconds(timeoutMs)}.`;
  if (e.cause instanceof OutboundRefused) return e.cause.message;
  const code = e.cause?.code;
  if (code === "ECONNREFUSED") return `Could not connect to ${url}: connection refused. Is the server running?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `Could not resolve the host of ${url}.`;
  return `Could not reach ${url}${code ? ` (${code})` : ""}.`;
}

/** GET {base}/models. Never throws for provider or network trouble: the result says what happened. */
export async function listProviderModels(p: ProbeTarget, opts: { timeoutMs?: number; fetch?: typeof fetch } = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const base = effectiveBaseUrl(p.kind, p.baseUrl);
  const started = Date.now();
  const ms = () => Date.now() - started;
  if (!base) return { ok: false, ms: 0, message: "This provider has no base URL." };
  const url = `${base}/models${p.kind === "anthropic" ? "?limit=1000" : ""}`;
  const signal = AbortSignal.timeout(timeoutMs);
  let headers: Record<string, string>;
  try {
    headers = requestHeaders(p, base);
  } catch (err) {
    if (err instanceof SecretOriginError) return { ok: false, ms: 0, status: err.status, message: err.message };
    throw err;
  }
  let res: Response;
  let body: string;
  try {
    res = await (opts.fetch ?? outboundFetch())(url, { headers, signal });
    body = await res.text();
  } catch (err) {
    return { ok: false, ms: ms(), message: networkMessage(err, `${base}/models`, timeoutMs) };
  }
  if (!res.ok) return { ok: false, ms: ms(), status: res.status, message: `HTTP ${res.status}: ${statusReason(res.status)}` };
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const type = res.headers.get("content-type")?.split(";")[0] || "no content type";
    return {
      ok: false,
      ms: ms(),
      status: res.status,
      message: `The provider answered HTTP ${res.status} with ${type}, not the JSON model list. Check the base URL (it usually ends in /v1).`,
    };
  }
  const data = (json as { data?: unknown; models?: unknown }).data ?? (json as { models?: unknown }).models;
  if (!Array.isArray(data)) {
    return { ok: false, ms: ms(), status: res.status, message: "The provider answered, but not with a model list ({ data: [...] }). Check the base URL." };
  }
  const models = [
    ...new Set(
      data.map((m) => (m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name).filter((id): id is string => typeof id === "string"),
    ),
  ].sort();
  return { ok: true, ms: ms(), models };
}

export function describeProbe(r: ProbeResult): string {
  if (!r.ok) return r.message;
  return `Connected in ${seconds(r.ms)}. The provider lists ${r.models.length} model${r.models.length === 1 ? "" : "s"}.`;
}

/** Local servers on their usual ports that answer now (offered as suggestions in the form). */
const LOCAL_SERVERS = [
  { name: "Ollama", baseUrl: "http://127.0.0.1:11434/v1" },
  { name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1" },
] as const;

export async function detectLocalServers(timeoutMs = 1500, servers: readonly { name: string; baseUrl: string }[] = LOCAL_SERVERS) {
  const found = await Promise.all(
    servers.map(async (s) => {
      const r = await listProviderModels({ kind: "openai_compatible", baseUrl: s.baseUrl, apiKeyEnc: null, headersEnc: null }, { timeoutMs });
      return r.ok ? { name: s.name, baseUrl: s.baseUrl, models: r.models.length } : null;
    }),
  );
  return found.filter((s): s is { name: string; baseUrl: string; models: number } => s !== null);
}
