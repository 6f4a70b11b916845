// Talking to a provider outside a turn: "Test connection" and "Fetch models" both make one real
// request to its model list (GET {base}/models; Anthropic's /v1/models takes x-api-key), bounded by a
// timeout, and report the provider's own error (HTTP status and message) when it refuses.
import type { Provider } from "../db/generated/client";
import { decryptSecret } from "../security/keyring";
import { effectiveBaseUrl } from "./kinds";

const PROBE_TIMEOUT_MS = 10_000;

export type ProbeTarget = Pick<Provider, "kind" | "baseUrl" | "apiKeyEnc" | "headersEnc">;
export type ProbeResult = { ok: true; ms: number; models: string[] } | { ok: false; ms: number; status?: number; message: string };

function requestHeaders(p: ProbeTarget): Record<string, string> {
  const apiKey = p.apiKeyEnc ? decryptSecret(p.apiKeyEnc) : undefined;
  const extra = p.headersEnc ? (JSON.parse(decryptSecret(p.headersEnc)) as Record<string, string>) : {};
  const auth: Record<string, string> =
    p.kind === "anthropic"
      ? { "anthropic-version": "2023-06-01", ...(apiKey ? { "x-api-key": apiKey } : {}) }
      : apiKey
        ? { authorization: `Bearer ${apiKey}` }
        : {};
  return { accept: "application/json", ...auth, ...extra };
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

/** The provider's own words from an error body: OpenAI, Anthropic, Ollama and plain-text shapes. */
function providerErrorMessage(body: string): string | undefined {
  try {
    const j = JSON.parse(body) as { error?: string | { message?: string }; message?: string; detail?: string };
    if (typeof j.error === "string") return j.error;
    if (j.error?.message) return j.error.message;
    if (typeof j.message === "string") return j.message;
    if (typeof j.detail === "string") return j.detail;
  } catch {
    /* not JSON */
  }
  const text = body.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  return text ? text.slice(0, 200) : undefined;
}

function networkMessage(err: unknown, url: string, timeoutMs: number): string {
  const e = err as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `No answer from ${url} within ${seconds(timeoutMs)}.`;
  const code = e.cause?.code;
  if (code === "ECONNREFUSED") return `Could not connect to ${url}: connection refused. Is the server running?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `Could not resolve the host of ${url}.`;
  return `Could not reach ${url}: ${e.cause?.message ?? e.message ?? "network error"}.`;
}

/** GET {base}/models. Never throws for provider or network trouble: the result says what happened. */
export async function listProviderModels(p: ProbeTarget, opts: { timeoutMs?: number } = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const base = effectiveBaseUrl(p.kind, p.baseUrl);
  const started = Date.now();
  const ms = () => Date.now() - started;
  if (!base) return { ok: false, ms: 0, message: "This provider has no base URL." };
  const url = `${base}/models${p.kind === "anthropic" ? "?limit=1000" : ""}`;
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { headers: requestHeaders(p), signal, redirect: "manual" });
    body = await res.text();
  } catch (err) {
    return { ok: false, ms: ms(), message: networkMessage(err, `${base}/models`, timeoutMs) };
  }
  if (!res.ok) {
    const said = providerErrorMessage(body);
    return { ok: false, ms: ms(), status: res.status, message: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${said ? `: ${said}` : ""}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const type = res.headers.get("content-type")?.split(";")[0] || "no content type";
    return { ok: false, ms: ms(), status: res.status, message: `The provider answered HTTP ${res.status} with ${type}, not the JSON model list. Check the base URL (it usually ends in /v1).` };
  }
  const data = (json as { data?: unknown; models?: unknown }).data ?? (json as { models?: unknown }).models;
  if (!Array.isArray(data)) {
    return { ok: false, ms: ms(), status: res.status, message: "The provider answered, but not with a model list ({ data: [...] }). Check the base URL." };
  }
  const models = [...new Set(data.map((m) => (m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name).filter((id): id is string => typeof id === "string"))].sort();
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
