// A database that refuses the store's writes mid-answer (a client that fails while "down", injected
// through the turn's dependencies): a short outage is ridden out by retries and everything is stored;
// a long one ends with a visible "not saved" notice instead of "done", and the message is marked as
// soon as the database takes writes again.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it, vi } from "vitest";
import { db } from "../db/client";
import type { PrismaClient } from "../db/generated/client";
import { readUntil, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { NOT_SAVED_REASON } from "../messages/recovery";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  /** The real client, except that while `down` every write through it fails as a lost connection would. */
  function flakyDatabase(real: PrismaClient) {
    const state = { down: false, failures: 0, /** Comes back by itself after this many failures. */ upAfter: Infinity };
    const fail = () => {
      state.failures++;
      if (state.failures >= state.upAfter) state.down = false;
      return Promise.reject(new Error("Connection terminated unexpectedly"));
    };
    const guard = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(t, k) {
          const v = Reflect.get(t, k) as unknown;
          if (typeof v !== "function") return v;
          return (...args: unknown[]) => (state.down ? fail() : (v as (...a: unknown[]) => unknown).apply(t, args));
        },
      });
    const client = new Proxy(real, {
      get(t, k) {
        if (k === "block" || k === "message" || k === "chat" || k === "usageRecord") return guard(Reflect.get(t, k) as object);
        if (k === "$transaction") return (...args: unknown[]) => (state.down ? fail() : (t.$transaction as (...a: unknown[]) => unknown)(...args));
        return Reflect.get(t, k);
      },
    });
    return { state, client: async () => client };
  }

  const RETRY = { attempts: 4, firstMs: 20, maxMs: 80 };
  const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(" ");

  describe("the database fails while an answer streams", () => {
    it("a short outage: the writer retries with backoff and the whole answer is stored, done", async () => {
      const long = words(80, "s");
      mock.onMessage("outage short", { content: long }, { latency: 10 });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const flaky = flakyDatabase(await db());
      const done = storedTurn();
      const res = await runTurn(
        ctx,
        { chatId: chat.id, text: "outage short" },
        { storeDb: flaky.client, retry: RETRY, throttleMs: 20, onStored: done.onStored },
      );
      const { rest } = await readUntil(res, (c) => textOf(c).length > 40);
      // Down for two failed writes, then back.
      flaky.state.upAfter = 2;
      flaky.state.down = true;
      const chunks = await rest;
      expect(textOf(chunks)).toBe(long);
      expect(chunks.filter((c) => c.type === "data-notice")).toEqual([]);
      const stored = await done.promise;
      expect(flaky.state.failures).toBeGreaterThanOrEqual(2);
      expect(stored).toMatchObject({ status: "done", saved: true });
      const answer = await storedAnswer(chat.id);
      expect(answer.status).toBe("done");
      expect(answer.blocks.find((b) => b.kind === "text")?.text).toBe(long);
    });

    it("a long outage: the browser is told the answer was not saved (never 'done'), and the message is marked once the database is back", async () => {
      const long = words(80, "l");
      mock.onMessage("outage long", { content: long }, { latency: 10 });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const flaky = flakyDatabase(await db());
      const done = storedTurn();
      const res = await runTurn(
        ctx,
        { chatId: chat.id, text: "outage long" },
        { storeDb: flaky.client, retry: RETRY, throttleMs: 20, onStored: done.onStored },
      );
      const { rest } = await readUntil(res, (c) => textOf(c).length > 40);
      flaky.state.down = true;
      const chunks = await rest;
      expect(textOf(chunks)).toBe(long);
      expect(chunks.find((c) => c.type === "data-notice")).toMatchObject({ data: { code: "NotSaved" } });
      const finish = chunks.find((c) => c.type === "finish") as { messageMetadata?: { status?: string } } | undefined;
      expect(finish?.messageMetadata?.status).not.toBe("done");
      expect(await done.promise).toMatchObject({ saved: false, status: "interrupted" });

      const prisma = await db();
      // Still down: the message is as the outage left it.
      expect((await storedAnswer(chat.id)).status).toBe("streaming");
      flaky.state.down = false;
      await vi.waitFor(
        async () => {
          const answer = await storedAnswer(chat.id);
          expect(answer).toMatchObject({ status: "interrupted", finishReason: NOT_SAVED_REASON });
        },
        { timeout: 5_000, interval: 50 },
      );
      expect((await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId).toBeNull();
      // What was stored before the outage is kept, and is final.
      const text = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "text");
      expect(text?.status).toBe("done");
      expect(long.startsWith(text?.text ?? "")).toBe(true);
    });
  });
});
