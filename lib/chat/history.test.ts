// Long chats load in pages from the newest, and the model gets the newest messages that fit its context
// window, in order (on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DATABASES, makeUser, startTestApp } from "../../test/support/test-app";
import { fitHistory, HISTORY_PAGE_SIZE, historyBudget, loadHistory, loadMessagePage, toModelHistory } from "./history";

async function chatWith(count: number, text = (i: number) => `message ${i}`) {
  const prisma = await db();
  const user = await makeUser();
  const team = await prisma.team.create({ data: { name: "T" } });
  const chat = await prisma.chat.create({ data: { teamId: team.id, userId: user.id } });
  const ids = Array.from({ length: count }, (_, i) => `${chat.id}-m${i}`);
  // Same creation time for all: the order must come from the sequence, not the clock.
  const createdAt = new Date();
  await prisma.message.createMany({ data: ids.map((id, i) => ({ id, chatId: chat.id, role: i % 2 ? "assistant" : "user", status: "done", createdAt })) });
  await prisma.block.createMany({ data: ids.map((id, i) => ({ messageId: id, ordinal: 0, kind: "text", status: "done", text: text(i) })) });
  return { chat, ids };
}

describe.each(DATABASES)("history on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  });
  afterAll(() => stop?.());

  it("a 2,000-message chat opens with the newest page and pages back to the first message", async () => {
    const { chat, ids } = await chatWith(2000);
    const first = await loadMessagePage(chat.id);
    expect(first.messages).toHaveLength(HISTORY_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.messages.at(-1)?.id).toBe(ids.at(-1));
    const seen = [...first.messages];
    let cursor = first.firstSeq;
    let more = first.hasMore;
    while (more) {
      const page = await loadMessagePage(chat.id, { beforeSeq: cursor });
      seen.unshift(...page.messages);
      cursor = page.firstSeq;
      more = page.hasMore;
    }
    expect(seen.map((m) => m.id)).toEqual(ids);
    expect(seen[1].parts).toEqual([{ type: "text", text: "message 1", state: "done" }]);
  });

  it("the model sees every message in order, without error-only answers", async () => {
    const { chat } = await chatWith(4);
    const prisma = await db();
    await prisma.message.create({
      data: {
        id: `${chat.id}-err`,
        chatId: chat.id,
        role: "assistant",
        status: "error",
        blocks: {
          create: {
            ordinal: 0,
            kind: "error",
            status: "done",
            errorCode: "ProviderError",
            errorText: "boom",
            data: { code: "ProviderError", message: "boom" },
          },
        },
      },
    });
    const loaded = await loadHistory(chat.id);
    expect(loaded.cut).toBe(false);
    const history = await toModelHistory(loaded.messages);
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(history)).not.toContain("boom");
  });

  it("a long chat without a budget is read whole, in order, across batches", async () => {
    const { chat, ids } = await chatWith(650);
    const { messages, cut } = await loadHistory(chat.id);
    expect(cut).toBe(false);
    expect(messages.map((m) => m.id)).toEqual(ids);
  });

  it("a message of an older batch keeps its citations and who decided its call; versions off the branch stay out", async () => {
    // 150 messages: the first batch holds the newest 100, the message at index 20 comes with the second.
    const { chat, ids } = await chatWith(150);
    const prisma = await db();
    const decider = await makeUser("Dana Decider");
    const answer = ids[21];
    await prisma.block.create({
      data: {
        messageId: answer,
        ordinal: 1,
        kind: "tool",
        status: "output-available",
        toolCallId: "call-1",
        toolName: "search",
        input: { q: "x" },
        output: { hits: 1 },
        approvalId: `${chat.id}-ap`,
        approved: true,
        decidedById: decider.id,
        decidedAt: new Date(),
      },
    });
    await prisma.citation.create({ data: { messageId: answer, ordinal: 1, url: "https://example.com/source", title: "Source", origin: "provider_search" } });
    // A message inside the second batch's seq range that a newer version took off the branch: neither it nor its blocks are read.
    const offBranch = ids[30];
    await prisma.message.update({ where: { id: offBranch }, data: { onBranch: false } });
    await prisma.block.updateMany({ where: { messageId: offBranch }, data: { text: "old version" } });

    const { messages } = await loadHistory(chat.id);
    expect(messages.map((m) => m.id)).toEqual(ids.filter((id) => id !== offBranch));
    const read = messages.find((m) => m.id === answer)!;
    expect(read.metadata?.citations).toEqual([expect.objectContaining({ url: "https://example.com/source", title: "Source" })]);
    const call = read.parts.find((p) => p.type === "tool-search") as { approval?: { approved?: boolean; decidedBy?: string } } | undefined;
    expect(call?.approval).toMatchObject({ approved: true, decidedBy: decider.name });
    expect(JSON.stringify(messages)).not.toContain("old version");
  });

  it("a budget keeps the newest messages that fit, starting at a question, and leaves out excluded rows", async () => {
    // 600 messages of ~1,000 characters (~1,050 with their part's keys): the budget holds ~95 of them.
    const { chat, ids } = await chatWith(600, (i) => `${i} `.padEnd(1000, "x"));
    const { messages, cut } = await loadHistory(chat.id, { maxChars: 100_000 });
    expect(cut).toBe(true);
    expect(messages.length).toBeGreaterThan(80);
    expect(messages.length).toBeLessThan(100);
    expect(messages.at(-1)?.id).toBe(ids.at(-1));
    expect(messages[0].role).toBe("user");
    expect(messages.map((m) => m.id)).toEqual(ids.slice(ids.length - messages.length));
    expect(JSON.stringify(messages.map((m) => m.parts)).length).toBeLessThanOrEqual(100_000);

    const without = await loadHistory(chat.id, { maxChars: 100_000, exclude: [ids.at(-1)!] });
    expect(without.messages.at(-1)?.id).toBe(ids.at(-2));
  });

  it("the newest message is kept even when it alone is over the budget", async () => {
    const { chat, ids } = await chatWith(3, () => "y".repeat(5_000));
    const { messages, cut } = await loadHistory(chat.id, { maxChars: 1_000 });
    expect(cut).toBe(true);
    expect(messages.map((m) => m.id)).toEqual([ids[2]]);
  });

  it("a smaller window cuts a loaded history further, the same way", async () => {
    const { chat, ids } = await chatWith(40, (i) => `${i} `.padEnd(500, "z"));
    const whole = await loadHistory(chat.id);
    const fitted = fitHistory(whole, 5_000);
    expect(fitted.cut).toBe(true);
    expect(fitted).toEqual(await loadHistory(chat.id, { maxChars: 5_000 }));
    expect(fitted.messages.at(-1)?.id).toBe(ids.at(-1));
    expect(fitHistory(whole, Infinity)).toBe(whole);
  });
});

describe("history budget", () => {
  it("a model's context window sets its budget; 128k tokens when its admin set none", () => {
    expect(historyBudget(8_192)).toBe(18_432);
    expect(historyBudget(null)).toBe(historyBudget(128_000));
    expect(historyBudget(1_000_000)).toBeGreaterThan(historyBudget(null));
  });
});
