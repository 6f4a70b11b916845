// Long chats load in pages from the newest, and the model gets the whole conversation in order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { DRIVERS, makeUser, startTestApp } from "../test-app";
import { HISTORY_PAGE_SIZE, loadHistory, loadMessagePage, toModelHistory } from "./history";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
});
afterAll(() => stop?.());

async function chatWith(count: number) {
  const prisma = await db();
  const user = await makeUser();
  const team = await prisma.team.create({ data: { name: "T" } });
  const chat = await prisma.chat.create({ data: { teamId: team.id, userId: user.id } });
  const ids = Array.from({ length: count }, (_, i) => `${chat.id}-m${i}`);
  // Same creation time for all: the order must come from the sequence, not the clock.
  const createdAt = new Date();
  await prisma.message.createMany({ data: ids.map((id, i) => ({ id, chatId: chat.id, role: i % 2 ? "assistant" : "user", status: "done", createdAt })) });
  await prisma.block.createMany({ data: ids.map((id, i) => ({ messageId: id, ordinal: 0, kind: "text", status: "done", text: `message ${i}` })) });
  return { chat, ids };
}

describe("history", () => {
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
      data: { id: `${chat.id}-err`, chatId: chat.id, role: "assistant", status: "error", blocks: { create: { ordinal: 0, kind: "error", status: "done", errorCode: "ProviderError", errorText: "boom", data: { code: "ProviderError", message: "boom" } } } },
    });
    const history = await toModelHistory(await loadHistory(chat.id));
    expect(history.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(history)).not.toContain("boom");
  });
});
