// Anthropic prompt caching: cache breakpoints (providerOptions.anthropic.cacheControl) on the system
// prompt (the call's `instructions`), on the last tool definition (which caches all tool definitions
// before it) and on the last message (which caches the conversation so far for the next turn).
// Anthropic allows four breakpoints; this sets at most three. Other kinds are returned unchanged
// (OpenAI caches prefixes by itself).
import type { ModelMessage, SystemModelMessage, ToolSet } from "ai";
import type { ProviderKind } from "../db/generated/client";

const EPHEMERAL = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;

type ProviderOptions = Record<string, Record<string, unknown>>;

function mark<T>(x: T): T {
  const current = (x as { providerOptions?: ProviderOptions }).providerOptions;
  return { ...x, providerOptions: { ...current, anthropic: { ...current?.anthropic, ...EPHEMERAL.anthropic } } } as T;
}

export function withPromptCaching(
  kind: ProviderKind,
  input: { system?: string; messages: ModelMessage[]; tools?: ToolSet },
): { instructions?: string | SystemModelMessage; messages: ModelMessage[]; tools?: ToolSet } {
  if (kind !== "anthropic") return { instructions: input.system || undefined, messages: input.messages, tools: input.tools };
  const messages: ModelMessage[] = input.messages.map((m, i, all) => (i === all.length - 1 ? mark(m) : m));
  const instructions = input.system ? mark<SystemModelMessage>({ role: "system", content: input.system }) : undefined;
  let tools = input.tools;
  const names = tools ? Object.keys(tools) : [];
  if (tools && names.length) {
    const last = names[names.length - 1];
    tools = { ...tools, [last]: mark(tools[last]) };
  }
  return { instructions, messages, tools };
}
