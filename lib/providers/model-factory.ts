// Provider rows -> AI SDK language and embedding models, and the provider-native tools a model row's flags ask for.
// The API key is decrypted here, in memory, for the call. A provider without a key sends an empty one:
// the SDKs would otherwise fall back to OPENAI_API_KEY / ANTHROPIC_API_KEY from the server's environment
// and send it to whatever base URL an admin typed. Secrets open only for the origin they were saved
// for, and every request goes through the guarded outbound fetch (address rules, no redirects to
// other servers).
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV4, LanguageModelV4 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import type { Provider } from "../db/generated/client";
import { AppError } from "../errors";
import { outboundFetch } from "../security/outbound-fetch";
import { openJsonSecretFor, openSecretFor } from "../security/stored-secrets";
import { effectiveBaseUrl } from "./kinds";
import { mergingFetch } from "./sse-merge";

export type ProviderCredentials = Pick<Provider, "kind" | "name" | "baseUrl" | "apiKeyEnc" | "headersEnc">;

/** The name under which the web search tool is offered to the model (and shown in its tool block). */
export const WEB_SEARCH_TOOL = "web_search";

/** The key and headers, opened for the provider's effective base URL only (SecretOriginError otherwise). */
function secrets(p: ProviderCredentials): { apiKey?: string; headers?: Record<string, string> } {
  const base = effectiveBaseUrl(p.kind, p.baseUrl);
  if (!base) return {};
  return {
    apiKey: openSecretFor(p.apiKeyEnc, base, base, `The API key of provider ${p.name}`),
    headers: openJsonSecretFor<Record<string, string>>(p.headersEnc, base, base, `The headers of provider ${p.name}`),
  };
}

function openai(p: ProviderCredentials, fetchImpl: typeof fetch = outboundFetch()) {
  const { apiKey, headers } = secrets(p);
  return createOpenAI({ apiKey: apiKey ?? "", baseURL: p.baseUrl || undefined, headers, fetch: fetchImpl });
}

/**
 * The model a provider row and model id name. Its event streams pass through `mergingFetch`, which
 * folds text deltas that arrive together (sse-merge.ts); `fetchImpl` is the fetch underneath.
 */
export function languageModel(p: ProviderCredentials, modelId: string, fetchImpl: typeof fetch = outboundFetch()): LanguageModelV4 {
  const { apiKey, headers } = secrets(p);
  const baseURL = p.baseUrl || undefined;
  switch (p.kind) {
    case "openai_responses":
      return openai(p, mergingFetch("responses", fetchImpl)).responses(modelId);
    case "openai_chat":
      return openai(p, mergingFetch("chat", fetchImpl)).chat(modelId);
    case "openai_compatible": {
      if (!baseURL) throw new AppError("ProviderMisconfigured", 500, `Provider ${p.name} needs a base URL.`);
      const fetch = mergingFetch("chat", fetchImpl);
      return createOpenAICompatible({ name: "compatible", baseURL, apiKey, headers, includeUsage: true, fetch })(modelId);
    }
    case "anthropic":
      return createAnthropic({ apiKey: apiKey ?? "", baseURL, headers, fetch: mergingFetch("anthropic", fetchImpl) })(modelId);
  }
}

/**
 * The embedding model a provider row and model id name (OpenAI's `/v1/embeddings`, which OpenAI-compatible
 * servers such as Ollama and vLLM serve too). Anthropic has none: refused with what to pick instead.
 */
export function embeddingModel(p: ProviderCredentials, modelId: string, fetchImpl: typeof fetch = outboundFetch()): EmbeddingModelV4 {
  const { apiKey, headers } = secrets(p);
  const baseURL = p.baseUrl || undefined;
  switch (p.kind) {
    case "openai_responses":
    case "openai_chat":
      return openai(p, fetchImpl).embeddingModel(modelId);
    case "openai_compatible":
      if (!baseURL) throw new AppError("ProviderMisconfigured", 500, `Provider ${p.name} needs a base URL.`);
      return createOpenAICompatible({ name: "compatible", baseURL, apiKey, headers, fetch: fetchImpl }).embeddingModel(modelId);
    case "anthropic":
      throw new AppError("NoEmbeddings", 400, `Provider ${p.name} is Anthropic, which has no embedding models: pick an OpenAI or OpenAI-compatible provider.`);
  }
}

export type ModelFlags = { webSearch: boolean; toolCalling: "native" | "prompt" | "none" };

/**
 * Provider-native tools for a model row: OpenAI's web search for a Responses model flagged for it.
 * They run at the provider; their URL citations arrive as `source` parts.
 */
export function providerTools(p: ProviderCredentials, flags: ModelFlags): ToolSet {
  if (p.kind === "openai_responses" && flags.webSearch && flags.toolCalling !== "none") {
    return { [WEB_SEARCH_TOOL]: openai(p).tools.webSearch({}) };
  }
  return {};
}
