// Building a model for each provider kind and flag: the right API, the provider-native web search
// tool only where it exists, and no key from the server's environment sent to an admin's URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, startTestApp } from "../../test/support/test-app";
import { encryptSecret } from "../security/keyring";
import { languageModel, providerTools, WEB_SEARCH_TOOL, type ProviderCredentials } from "./model-factory";
import { withPromptCaching } from "./prompt-cache";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
});
afterAll(async () => stop?.());

const row = (kind: ProviderCredentials["kind"], extra: Partial<ProviderCredentials> = {}): ProviderCredentials => ({
  kind,
  name: "p",
  baseUrl: "http://127.0.0.1:9/v1",
  apiKeyEnc: encryptSecret("sk-test-abcdef123456"),
  headersEnc: null,
  ...extra,
});

describe("languageModel", () => {
  it.each([
    ["openai_responses", "openai.responses"],
    ["openai_chat", "openai.chat"],
    ["openai_compatible", "compatible.chat"],
    ["anthropic", "anthropic.messages"],
  ] as const)("%s -> %s", (kind, provider) => {
    const m = languageModel(row(kind), "some-model");
    expect(m.provider).toBe(provider);
    expect(m.modelId).toBe("some-model");
  });

  it("an OpenAI-compatible provider without a base URL is a clear error", () => {
    expect(() => languageModel(row("openai_compatible", { baseUrl: null }), "m")).toThrow(/needs a base URL/);
  });

  it.each(["openai_responses", "openai_chat", "anthropic"] as const)("%s without a key never sends the server's environment key", async (kind) => {
    const saved = { o: process.env.OPENAI_API_KEY, a: process.env.ANTHROPIC_API_KEY };
    process.env.OPENAI_API_KEY = "sk-from-env-SECRET";
    process.env.ANTHROPIC_API_KEY = "sk-ant-from-env-SECRET";
    const seen: string[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      seen.push(JSON.stringify(init.headers));
      return new Response("{}", { status: 500 });
    }) as unknown as typeof fetch;
    try {
      const m = languageModel(row(kind, { apiKeyEnc: null }), "m", fetchImpl);
      await Promise.resolve(m.doGenerate({ prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] })).catch(() => {});
      expect(seen.length).toBe(1);
      expect(seen[0]).not.toContain("from-env-SECRET");
    } finally {
      process.env.OPENAI_API_KEY = saved.o;
      process.env.ANTHROPIC_API_KEY = saved.a;
      if (saved.o === undefined) delete process.env.OPENAI_API_KEY;
      if (saved.a === undefined) delete process.env.ANTHROPIC_API_KEY;
    }
  });
});

describe("providerTools", () => {
  it("offers web search for a Responses model flagged for it, and nowhere else", () => {
    const search = providerTools(row("openai_responses"), { webSearch: true, toolCalling: "native" });
    expect(Object.keys(search)).toEqual([WEB_SEARCH_TOOL]);
    expect(search[WEB_SEARCH_TOOL]).toMatchObject({ type: "provider", id: "openai.web_search" });
    expect(providerTools(row("openai_responses"), { webSearch: false, toolCalling: "native" })).toEqual({});
    expect(providerTools(row("openai_responses"), { webSearch: true, toolCalling: "none" })).toEqual({});
    for (const kind of ["openai_chat", "openai_compatible", "anthropic"] as const) {
      expect(providerTools(row(kind), { webSearch: true, toolCalling: "native" })).toEqual({});
    }
  });
});

describe("withPromptCaching", () => {
  const messages = [
    { role: "user" as const, content: "first" },
    { role: "assistant" as const, content: "answer" },
    { role: "user" as const, content: "second" },
  ];
  const tools = { a: { inputSchema: {} }, b: { inputSchema: {} } } as never;

  it("marks the system prompt, the last tool and the last message for Anthropic", () => {
    const out = withPromptCaching("anthropic", { system: "Be brief.", messages, tools });
    const cache = { anthropic: { cacheControl: { type: "ephemeral" } } };
    expect(out.instructions).toMatchObject({ role: "system", content: "Be brief.", providerOptions: cache });
    expect(out.messages[out.messages.length - 1]).toMatchObject({ content: "second", providerOptions: cache });
    expect(out.messages.filter((m) => m.providerOptions).length).toBe(1);
    expect((out.tools as Record<string, { providerOptions?: unknown }>).b.providerOptions).toEqual(cache);
    expect((out.tools as Record<string, { providerOptions?: unknown }>).a.providerOptions).toBeUndefined();
  });

  it("leaves other kinds unmarked", () => {
    const out = withPromptCaching("openai_responses", { messages, tools });
    expect(out.messages).toEqual(messages);
    expect(out.tools).toBe(tools);
  });
});
