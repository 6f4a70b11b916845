// Provider rows -> AI SDK language models. The API key is decrypted here, in memory, for the call.
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { Provider } from "../db/generated/client";
import { AppError } from "../errors";
import { decryptSecret } from "../security/keyring";

export type ProviderCredentials = Pick<Provider, "kind" | "name" | "baseUrl" | "apiKeyEnc" | "headersEnc">;

function secrets(p: ProviderCredentials): { apiKey?: string; headers?: Record<string, string> } {
  return {
    apiKey: p.apiKeyEnc ? decryptSecret(p.apiKeyEnc) : undefined,
    headers: p.headersEnc ? (JSON.parse(decryptSecret(p.headersEnc)) as Record<string, string>) : undefined,
  };
}

export function languageModel(p: ProviderCredentials, modelId: string, fetchImpl?: typeof fetch): LanguageModelV3 {
  const { apiKey, headers } = secrets(p);
  const baseURL = p.baseUrl ?? undefined;
  switch (p.kind) {
    case "openai_responses":
      return createOpenAI({ apiKey, baseURL, headers, fetch: fetchImpl }).responses(modelId);
    case "openai_chat":
      return createOpenAI({ apiKey, baseURL, headers, fetch: fetchImpl }).chat(modelId);
    case "openai_compatible":
      if (!baseURL) throw new AppError("ProviderMisconfigured", 500, `Provider ${p.name} needs a base URL.`);
      return createOpenAICompatible({ name: "compatible", baseURL, apiKey, headers, includeUsage: true, fetch: fetchImpl })(modelId);
    case "anthropic":
      throw new AppError("ProviderUnsupported", 501, "Anthropic providers are not supported yet.");
  }
}
