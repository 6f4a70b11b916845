// A rolling restart on one machine's scale: the instance that stops hands its running answer over
// (stop-turns.ts), and the instance that takes it may hear of it before the answer is stored. It waits
// for the answer to be stored as interrupted, then continues it to the end as its owner.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { readUntil, storedAnswer, teamWithProvider } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { continueHandedOver } from "./continue-decided";
import { loadMessagePage } from "../chat/history";
import { streamRegistry } from "./stream-registry";
import { turnDeps } from "./turn";

let mock: LLMock;

/** A promise that says whether it has settled yet. */
function watched<T>(p: Promise<T>): Promise<T> & { settled: boolean } {
  const w = Object.assign(p, { settled: false });
  void p.finally(() => (w.settled = true)).catch(() => {});
  return w;
}
/** Holds the other side's state for `ms` (what is tested is that nothing goes ahead meanwhile). */
const holdFor = (ms: number) => new Promise((r) => setTimeout(r, ms));
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("an answer handed over before it is stored is continued once it is, not dropped", async () => {
    const counting = Array.from({ length: 60 }, (_, i) => `Number ${i + 1}.`).join(" ");
    mock.addFixture({ match: { userMessage: "count slowly" }, response: { content: counting }, chunkSize: 6, streamingProfile: { ttft: 20, tps: 20 } });
    mock.addFixture({ match: { userMessage: "Continue your previous answer exactly where it stopped" }, response: { content: " Number 60. That is all." } });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const first = storedTurn();
    const res = await runTurn(ctx, { chatId: chat.id, text: "count slowly" }, { onStored: first.onStored });
    const { rest } = await readUntil(res, (chunks) => chunks.some((c) => c.type === "text-delta" && String(c.delta).includes("2.")));
    const registry = await streamRegistry();
    const running = registry.local.get(chat.id)!;
    // The handoff arrives while the stopping side has not stored the answer yet…
    const continued = continueHandedOver(chat.id, running.messageId, turnDeps({ nameChat: async () => undefined }));
    running.abort("handoff");
    await rest;
    expect((await first.promise).status).toBe("interrupted");
    // …and the answer goes on once it is, in the same message, to its end.
    expect(await continued).toBe(true);
    const answer = await storedAnswer(chat.id);
    expect(answer.id).toBe(running.messageId);
    expect(answer.status).toBe("done");
    expect(
      answer.blocks
        .filter((b) => b.kind === "text")
        .map((b) => b.text)
        .join(""),
    ).toMatch(/^Number 1\. Number 2\..* Number 60\. That is all\.$/);
  });

  it("an answer another instance is still storing is continued once its status says it ended", async () => {
    mock.addFixture({ match: { userMessage: "count on" }, response: { content: "One. Two. Three." } });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const first = storedTurn();
    await readUntil(await runTurn(ctx, { chatId: chat.id, text: "count on" }, { onStored: first.onStored }), () => false);
    const { messageId } = await first.promise;
    // As the other instance sees it mid-store: no turn of its own, the chat released, the message still streaming.
    const prisma = await db();
    await prisma.message.update({ where: { id: messageId }, data: { status: "streaming" } });
    const continued = watched(continueHandedOver(chat.id, messageId, turnDeps({ nameChat: async () => undefined })));
    await holdFor(300); // the stopping side, still storing: the continuation waits meanwhile
    expect(continued.settled).toBe(false);
    await prisma.message.update({ where: { id: messageId }, data: { status: "interrupted" } });
    expect(await continued).toBe(true);
    const answer = await storedAnswer(chat.id);
    expect(answer.status).toBe("done");
    expect(
      answer.blocks
        .filter((b) => b.kind === "text")
        .map((b) => b.text)
        .join(""),
    ).toMatch(/^One\. Two\. Three\. .*That is all\.$/); // the continuation went on after what was stored
  });
  it("an answer stored as interrupted is continued once the stopping side has also freed its chat", async () => {
    mock.addFixture({ match: { userMessage: "count again" }, response: { content: "One. Two. Three." } });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const first = storedTurn();
    await readUntil(await runTurn(ctx, { chatId: chat.id, text: "count again" }, { onStored: first.onStored }), () => false);
    const { messageId } = await first.promise;
    // As the other instance sees it when something other than the stopping side's store ended the message
    // (recovery, an older instance that writes the two apart): the message says interrupted while the
    // chat still names the stopping side's stream.
    const prisma = await db();
    await prisma.message.update({ where: { id: messageId }, data: { status: "interrupted" } });
    await prisma.chat.update({ where: { id: chat.id }, data: { activeStreamId: "stopping-side" } });
    const continued = watched(continueHandedOver(chat.id, messageId, turnDeps({ nameChat: async () => undefined })));
    await holdFor(300); // the chat still held: the continuation waits meanwhile
    expect(continued.settled).toBe(false);
    await prisma.chat.update({ where: { id: chat.id }, data: { activeStreamId: null } });
    expect(await continued).toBe(true);
    const answer = await storedAnswer(chat.id);
    expect(answer.status).toBe("done");
    expect(
      answer.blocks
        .filter((b) => b.kind === "text")
        .map((b) => b.text)
        .join(""),
    ).toMatch(/^One\. Two\. Three\. .*That is all\.$/);
  });
  it("an answer handed over reads back as handed over, so a page that reloads it keeps looking until it goes on", async () => {
    mock.addFixture({
      match: { userMessage: "count for the page" },
      response: { content: "One. Two. Three. Four. Five. Six. Seven." },
      chunkSize: 4,
      streamingProfile: { ttft: 20, tps: 20 },
    });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const first = storedTurn();
    const res = await runTurn(ctx, { chatId: chat.id, text: "count for the page" }, { onStored: first.onStored });
    const { rest } = await readUntil(res, (chunks) => chunks.some((c) => c.type === "text-delta"));
    (await streamRegistry()).local.get(chat.id)!.abort("handoff");
    await rest;
    expect((await first.promise).status).toBe("interrupted");
    const { messages } = await loadMessagePage(chat.id);
    expect(messages.at(-1)!.metadata).toMatchObject({ status: "interrupted", finishReason: "handed-over", handedOver: { withinMs: 30_000 } });
  });
});
