// The provider kinds Parley speaks, with what the forms and the probes need to know about each:
// a label, whether a base URL is required, the default base URL, and the auth header style.
import type { ProviderKind } from "../db/generated/client";

export type KindInfo = {
  kind: ProviderKind;
  label: string;
  /** Shown under the base URL field. */
  hint: string;
  baseUrlRequired: boolean;
  defaultBaseUrl?: string;
  /** Only OpenAI's Responses API offers the provider-native web search tool here. */
  webSearch: boolean;
};

export const PROVIDER_KINDS: readonly KindInfo[] = [
  {
    kind: "openai_responses",
    label: "OpenAI (Responses API)",
    hint: "Leave empty for api.openai.com.",
    baseUrlRequired: false,
    defaultBaseUrl: "https://api.openai.com/v1",
    webSearch: true,
  },
  {
    kind: "openai_chat",
    label: "OpenAI (Chat Completions)",
    hint: "Leave empty for api.openai.com.",
    baseUrlRequired: false,
    defaultBaseUrl: "https://api.openai.com/v1",
    webSearch: false,
  },
  {
    kind: "openai_compatible",
    label: "OpenAI-compatible (Ollama, vLLM, LM Studio, OpenRouter)",
    hint: "Required, e.g. http://127.0.0.1:11434/v1 for Ollama.",
    baseUrlRequired: true,
    webSearch: false,
  },
  {
    kind: "anthropic",
    label: "Anthropic",
    hint: "Leave empty for api.anthropic.com.",
    baseUrlRequired: false,
    defaultBaseUrl: "https://api.anthropic.com/v1",
    webSearch: false,
  },
];

export const KIND_IDS = PROVIDER_KINDS.map((k) => k.kind) as [ProviderKind, ...ProviderKind[]];

export function kindInfo(kind: ProviderKind): KindInfo {
  return PROVIDER_KINDS.find((k) => k.kind === kind)!;
}

/** The base URL requests go to: the row's, else the kind's default, without a trailing slash. */
export function effectiveBaseUrl(kind: ProviderKind, baseUrl: string | null | undefined): string | undefined {
  const url = baseUrl?.trim() || kindInfo(kind).defaultBaseUrl;
  return url?.replace(/\/+$/, "");
}
