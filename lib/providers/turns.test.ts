// Turns through each provider kind and the provider behaviours of issue 4, end to end through runTurn:
// Anthropic (prompt-cache breakpoints, cached tokens in the usage), provider-native web search with
// numbered citations that survive a reload, the team's fallback model with a visible notice, a model
// that is gone falling back to the team default, and a model's providerOptions reaching the provider.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { setProviderToolsAllowed } from "./models";
import type { ProviderKind } from "../db/generated/client";
import { encryptSecret } from "../security/keyring";
import { loadMessagePage } from "../chat/history";
import { readChunks, storedAnswer, teamWithProvider, textOf, type SseChunk } from "@/test/support/test-turns";
import { runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { anthropicAnswer, responsesWebSearch, startScripted } from "@/test/support/test-upstreams";

let mock: LLMock;
turnHarness((m) => (mock = m));

async function turn(ctx: Parameters<typeof runTurn>[0], chatId: string, text: string, opts: Parameters<typeof runTurn>[2] = {}, modelId?: string) {
  const done = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, { chatId, text, modelId }, { ...opts, onStored: done.onStored }));
  return { chunks, stored: await done.promise };
}

async function addModel(
  teamId: string,
  kind: ProviderKind,
  baseUrl: string,
  modelId: string,
  extra: { toolCalling?: "native" | "none"; webSearch?: boolean; providerOptions?: object } = {},
) {
  const prisma = await db();
  const provider = await prisma.provider.create({
    data: { teamId, name: `${kind}-${modelId}-${Math.random()}`, kind, baseUrl, apiKeyEnc: encryptSecret("sk-test-key-000") },
  });
  return prisma.model.create({ data: { providerId: provider.id, modelId, displayName: `Model ${modelId}`, ...extra } });
}

const notices = (chunks: SseChunk[]) => chunks.filter((c) => c.type === "data-notice").map((c) => (c.data as { code: string }).code);

describe.each(["openai_compatible", "anthropic"] as const)("a turn over %s (aimock)", (kind) => {
  it("streams and stores the answer", async () => {
    mock.onMessage(`hello over ${kind}`, { content: `Hello from ${kind}.` });
    const { ctx, chat } = await teamWithProvider(mock.url, kind);
    const { chunks, stored } = await turn(ctx, chat.id, `hello over ${kind}`);
    expect(textOf(chunks)).toBe(`Hello from ${kind}.`);
    expect(stored.status).toBe("done");
    expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "text")?.text).toBe(`Hello from ${kind}.`);
  });
});

describe("Anthropic prompt caching", () => {
  it("marks the conversation for caching and shows cached input tokens in the usage", async () => {
    const up = await startScripted((_req, res) => anthropicAnswer(res, "Cached hello."));
    try {
      const { ctx, chat } = await teamWithProvider(`${up.url}`, "anthropic");
      await (await db()).user.update({ where: { id: ctx.user.id }, data: { instructions: "Answer briefly." } });
      const { tool } = await import("ai");
      const { z } = await import("zod");
      const lookup = tool({ description: "Looks things up", inputSchema: z.object({ q: z.string() }), execute: async () => "x" });
      const { chunks, stored } = await turn(ctx, chat.id, "cache me", { tools: { lookup } });
      expect(textOf(chunks)).toBe("Cached hello.");
      // Anthropic's message_start bookkeeping (a `custom` part in AI SDK 7) is not part of the answer.
      expect(chunks.map((c) => c.type)).not.toContain("custom");
      expect(stored.status).toBe("done");
      const body = JSON.parse(up.requests[0].body) as {
        system?: { cache_control?: unknown }[];
        tools: { cache_control?: unknown }[];
        messages: { content: { cache_control?: unknown }[] }[];
      };
      expect(up.requests[0].path).toBe("/v1/messages");
      // The system prompt (the call's instructions) is a breakpoint too.
      expect(body.system?.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect(body.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
      const answer = await storedAnswer(chat.id);
      expect(answer.cachedInputTokens).toBe(1800);
      const page = await loadMessagePage(chat.id);
      expect(page.messages.at(-1)?.metadata?.usage?.cachedInputTokens).toBe(1800);
    } finally {
      await up.stop();
    }
  });
});

describe("provider-native web search", () => {
  const TEXT = "Parley stores citations as rows. Sources number in order of first appearance.";
  const CITES = [
    { url: "https://docs.example.com/citations", title: "Citations in Parley", cite: "stores citations as rows" },
    { url: "https://blog.example.org/numbering", title: "Numbering sources", cite: "in order of first appearance" },
    { url: "https://docs.example.com/citations", title: "Citations in Parley", cite: "Sources number" },
  ];

  it("offers the web search tool and turns URL citations into numbered Citation rows that survive reload", async () => {
    const up = await startScripted((_req, res) => responsesWebSearch(res, TEXT, CITES));
    try {
      const { ctx, chat } = await teamWithProvider("http://127.0.0.1:9", "openai_responses");
      const model = await addModel(ctx.team.id, "openai_responses", `${up.url}/v1`, "gpt-search", { webSearch: true });
      // The member picks the search model in the composer (the team default is another one).
      const { chunks: live } = await turn(ctx, chat.id, "search for it", {}, model.id);
      const body = JSON.parse(up.requests.at(-1)!.body) as { tools?: { type: string }[] };
      expect(body.tools?.map((t) => t.type)).toEqual(["web_search"]);
      expect(textOf(live)).toBe(TEXT);
      expect(live.filter((c) => c.type === "source-url").map((c) => c.url)).toEqual(CITES.map((c) => c.url));
      const meta = live.filter((c) => c.type === "message-metadata").at(-1) as unknown as { messageMetadata: { citations: unknown[] } };
      expect(meta.messageMetadata.citations).toEqual([
        { n: 1, url: CITES[0].url, title: CITES[0].title, origin: "provider_search" },
        { n: 2, url: CITES[1].url, title: CITES[1].title, origin: "provider_search" },
      ]);
      const answer = await storedAnswer(chat.id);
      const rows = await (await db()).citation.findMany({ where: { messageId: answer.id }, orderBy: { ordinal: "asc" } });
      expect(rows.map((r) => [r.ordinal, r.url, r.origin])).toEqual([
        [1, CITES[0].url, "provider_search"],
        [2, CITES[1].url, "provider_search"],
      ]);
      expect(rows.every((r) => r.blockId)).toBe(true);
      const reloaded = (await loadMessagePage(chat.id)).messages.at(-1)!;
      expect(reloaded.metadata?.citations?.map((c) => c.n)).toEqual([1, 2]);
      // The text part keeps the annotations (positions) for the superscripts.
      const textPart = reloaded.parts.find((p) => p.type === "text") as { providerMetadata?: { openai?: { annotations?: unknown[] } } };
      expect(textPart.providerMetadata?.openai?.annotations).toHaveLength(3);
      // The chat remembers the picked model.
      expect((await (await db()).chat.findUniqueOrThrow({ where: { id: chat.id } })).modelId).toBe(model.id);
      // An admin disallows the provider-executed tools of this model (they run without Parley's approval): not offered any more.
      await setProviderToolsAllowed(ctx, model.id, false);
      await turn(ctx, chat.id, "search again", {}, model.id);
      expect((JSON.parse(up.requests.at(-1)!.body) as { tools?: unknown[] }).tools ?? []).toEqual([]);
      expect(await (await db()).auditEvent.count({ where: { teamId: ctx.team.id, action: "model.provider-tools" } })).toBe(1);
    } finally {
      await up.stop();
    }
  });
});

describe("fallback model", () => {
  async function deadUrl() {
    const up = await startScripted(() => {});
    await up.stop();
    return `${up.url}/v1`;
  }

  it("a provider that cannot be reached hands the turn to the fallback model, with a notice", async () => {
    mock.onMessage("fall back please", { content: "The fallback answered." });
    const { ctx, chat } = await teamWithProvider(await deadUrl(), "openai_chat", "primary-model");
    const fallback = await addModel(ctx.team.id, "openai_chat", `${mock.url}/v1`, "fallback-model");
    await (await db()).team.update({ where: { id: ctx.team.id }, data: { fallbackModelId: fallback.id } });
    const { chunks, stored } = await turn(ctx, chat.id, "fall back please");
    expect(textOf(chunks)).toBe("The fallback answered.");
    expect(notices(chunks)).toEqual(["FellBack"]);
    expect(stored.status).toBe("done");
    const answer = await storedAnswer(chat.id);
    expect(answer.model).toBe("fallback-model");
    expect(answer.blocks.find((b) => b.kind === "data" && b.name === "notice")?.data).toMatchObject({ code: "FellBack" });
  });

  it("an upstream 500 falls back too; a 401 does not", async () => {
    mock.onMessage("primary 500", { content: "Fallback after 500." });
    const up = await startScripted((req, res) => {
      res.writeHead(req.body.includes("primary 401") ? 401 : 500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "nope" } }));
    });
    try {
      const { ctx, chat } = await teamWithProvider(up.url, "openai_chat", "primary-model");
      const fallback = await addModel(ctx.team.id, "openai_chat", `${mock.url}/v1`, "fallback-model");
      await (await db()).team.update({ where: { id: ctx.team.id }, data: { fallbackModelId: fallback.id } });
      const first = await turn(ctx, chat.id, "primary 500");
      expect(textOf(first.chunks)).toBe("Fallback after 500.");
      const second = await turn(ctx, chat.id, "primary 401");
      expect(notices(second.chunks)).toEqual([]);
      expect(second.chunks.find((c) => c.type === "data-error")).toMatchObject({ data: { code: "ProviderAuth" } });
    } finally {
      await up.stop();
    }
  });

  it("a model without tool calling is never the fallback of a turn that offers tools", async () => {
    const { ctx, chat } = await teamWithProvider(await deadUrl(), "openai_chat", "primary-model");
    const fallback = await addModel(ctx.team.id, "openai_chat", `${mock.url}/v1`, "no-tools-model", { toolCalling: "none" });
    await (await db()).team.update({ where: { id: ctx.team.id }, data: { fallbackModelId: fallback.id } });
    const { tool } = await import("ai");
    const { z } = await import("zod");
    const noop = tool({ description: "noop", inputSchema: z.object({}), execute: async () => "ok" });
    const { chunks, stored } = await turn(ctx, chat.id, "needs tools", { tools: { noop } });
    expect(notices(chunks)).toEqual([]);
    expect(chunks.find((c) => c.type === "data-error")).toMatchObject({ data: { code: "ProviderUnavailable" } });
    expect(stored.status).toBe("error");
  });
});

describe("model choice", () => {
  it("a disabled chosen model falls back to the team default with a notice", async () => {
    mock.onMessage("which model", { content: "The default one." });
    const { ctx, chat, model } = await teamWithProvider(mock.url, "openai_chat", "default-model");
    const other = await addModel(ctx.team.id, "openai_chat", `${mock.url}/v1`, "other-model");
    const prisma = await db();
    await prisma.chat.update({ where: { id: chat.id }, data: { modelId: other.id } });
    await prisma.model.update({ where: { id: other.id }, data: { enabled: false } });
    const { chunks } = await turn(ctx, chat.id, "which model");
    expect(textOf(chunks)).toBe("The default one.");
    expect(notices(chunks)).toEqual(["ModelUnavailable"]);
    expect((chunks.find((c) => c.type === "data-notice") as unknown as { data: { message: string } }).data.message).toContain(model.displayName);
  });

  it("the model named in the composer answers and is remembered; later turns without a name keep it", async () => {
    mock.onMessage("pick other", { content: "From the other model." });
    mock.onMessage("still other", { content: "Still the other model." });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat", "default-model");
    const other = await addModel(ctx.team.id, "openai_chat", `${mock.url}/v1`, "picked-model");
    const prisma = await db();
    const answeredBy = async () => (await prisma.message.findFirstOrThrow({ where: { chatId: chat.id, role: "assistant" }, orderBy: { seq: "desc" } })).model;
    await turn(ctx, chat.id, "pick other", {}, other.id);
    expect(await answeredBy()).toBe("picked-model");
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).modelId).toBe(other.id);
    const { chunks } = await turn(ctx, chat.id, "still other");
    expect(textOf(chunks)).toBe("Still the other model.");
    expect(notices(chunks)).toEqual([]);
    expect(await answeredBy()).toBe("picked-model");
  });

  it("a model's providerOptions reach the provider", async () => {
    mock.onMessage("with options", { content: "ok" });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat", "opts-model");
    await (
      await db()
    ).model.updateMany({ where: { provider: { teamId: ctx.team.id } }, data: { providerOptions: { openai: { user: "parley-options-test" } } } });
    mock.clearRequests();
    await turn(ctx, chat.id, "with options");
    const body = mock.getRequests().at(-1)?.body as { user?: string } | null;
    expect(body?.user).toBe("parley-options-test");
  });
});

describe("a model's context window", () => {
  /** A chat of `count` earlier messages (user, assistant, ...) of `size` characters, each naming its number. */
  async function earlier(chatId: string, count: number, size: number) {
    const prisma = await db();
    const ids = Array.from({ length: count }, (_, i) => `${chatId}-e${i}`);
    await prisma.message.createMany({ data: ids.map((id, i) => ({ id, chatId, role: i % 2 ? "assistant" : "user", status: "done" })) });
    await prisma.block.createMany({
      data: ids.map((id, i) => ({ messageId: id, ordinal: 0, kind: "text", status: "done", text: `<m${i}> `.padEnd(size, "w") })),
    });
  }
  type Body = { messages: { role: string; content: unknown }[] };
  const numbers = (body: Body) => [...JSON.stringify(body.messages).matchAll(/<m(\d+)>/g)].map((m) => Number(m[1]));

  /** A scripted Anthropic upstream that keeps each request's body. */
  async function upstream() {
    const up = await startScripted((_req, res) => anthropicAnswer(res, "ok"));
    return { ...up, last: () => JSON.parse(up.requests.at(-1)!.body) as Body };
  }

  it("bounds the history the model reads: the newest messages that fit, from a question on", async () => {
    const up = await upstream();
    try {
      const { ctx, chat, model } = await teamWithProvider(up.url, "anthropic", "small-window");
      await (await db()).model.update({ where: { id: model.id }, data: { contextWindow: 1_000 } }); // ~2,250 characters
      await earlier(chat.id, 20, 300);
      await turn(ctx, chat.id, "small window question");
      const body = up.last();
      const seen = numbers(body);
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.length).toBeLessThan(9);
      expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => 20 - seen.length + i)); // the newest, in order
      expect(seen[0] % 2).toBe(0); // a question first
      expect(body.messages[0].role).toBe("user");
      expect(body.messages.at(-1)?.role).toBe("user");
      expect(JSON.stringify(body.messages.at(-1))).toContain("small window question");
    } finally {
      await up.stop();
    }
  });

  it("without a window set, a long chat is cut at the default; a larger window reads further back", async () => {
    const up = await upstream();
    try {
      // 400 messages of 1,000 characters: more than the default window's ~288,000.
      const { ctx, chat, model } = await teamWithProvider(up.url, "anthropic", "some-window");
      await earlier(chat.id, 400, 1_000);
      await turn(ctx, chat.id, "default window question");
      const cut = numbers(up.last());
      expect(cut.length).toBeGreaterThan(200);
      expect(cut.length).toBeLessThan(300);
      expect(cut.at(-1)).toBe(399);

      await (await db()).model.update({ where: { id: model.id }, data: { contextWindow: 1_000_000 } });
      await turn(ctx, chat.id, "large window question");
      expect(numbers(up.last())).toEqual(Array.from({ length: 400 }, (_, i) => i));
    } finally {
      await up.stop();
    }
  });
});
