// Between turns (issue 21.1): the next message sent the instant an answer's stream ends is taken, never
// refused with 409 "A reply is still being written…". The turn holds its `finish` until the answer is
// stored and the chat released (turn-stream.ts), so when the browser hears the end, the chat is free.
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db/client";
import { readChunks, teamWithProvider, textOf } from "@/test/support/test-turns";
import { DATABASES, runTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  const lookup = tool({ description: "Looks something up", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ found: q }) });

  it("50 messages, each sent the instant the previous answer's stream ends: none refused, all answered and stored", async () => {
    // Every fifth answer runs a tool first: a turn with more to store (its fixtures first: they match more closely).
    mock.addFixture({ match: { userMessage: "tool follow-up", hasToolResult: false }, response: { toolCalls: [{ name: "lookup", arguments: '{"q":"x"}' }] } });
    mock.addFixture({ match: { userMessage: "tool follow-up", hasToolResult: true }, response: { content: "Looked it up." } });
    mock.onMessage("follow-up", { content: "Noted, and here is a reply of a few words that streams in several chunks." });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const refused: unknown[] = [];
    const texts: string[] = [];
    for (let i = 0; i < 50; i++) {
      const text = i % 5 === 4 ? `tool follow-up ${i}` : `follow-up ${i}`;
      try {
        // readChunks returns when the response ends: the moment a browser's Send comes back.
        texts.push(textOf(await readChunks(await runTurn(ctx, { chatId: chat.id, text }, { tools: { lookup } }))));
      } catch (err) {
        refused.push(err);
      }
    }
    expect(refused).toEqual([]);
    expect(texts.filter((t) => t === "Looked it up.")).toHaveLength(10);
    const prisma = await db();
    const messages = await prisma.message.findMany({ where: { chatId: chat.id }, orderBy: { seq: "asc" }, select: { role: true, status: true } });
    expect(messages).toHaveLength(100);
    expect(messages.filter((m) => m.role === "assistant").every((m) => m.status === "done")).toBe(true);
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId).toBeNull();
  }, 120_000);
});
