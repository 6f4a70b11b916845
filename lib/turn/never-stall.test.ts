// A turn never ends in silence: whatever the model does wrong, the turn ends with text, a call
// waiting for approval, or a visible error or notice — and the operator gets a step log line.
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { readChunks, storedAnswer, teamWithProvider, textOf, type SseChunk } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  const calls: unknown[] = [];
  const tools = {
    lookup: tool({
      description: "Looks up a city",
      inputSchema: z.object({ city: z.string() }),
      execute: async (input) => {
        calls.push(input);
        return { city: input.city, found: true };
      },
    }),
    explode: tool({
      description: "Always fails",
      inputSchema: z.object({ force: z.number().optional() }),
      execute: async (): Promise<{ ok: boolean }> => {
        throw new Error("the tool blew up");
      },
    }),
  };

  async function turn(text: string, extra: { stepLimit?: number } = {}) {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text }, { tools, onStored: done.onStored, ...extra }));
    return { chunks, stored: await done.promise, answer: await storedAnswer(chat.id) };
  }

  /** The last visible thing of a turn: text, a waiting call, or an error or notice. */
  function ending(chunks: SseChunk[]): string {
    const visible = chunks.filter((c) => ["text-delta", "tool-approval-request", "data-error", "data-notice", "tool-output-error"].includes(c.type));
    return visible.at(-1)?.type ?? "silence";
  }

  describe("never stall", () => {
    it("invalid JSON arguments get one re-ask for the same tool, then it runs", async () => {
      // The re-ask carries the validation error back as an InvalidArgs tool result.
      mock.addFixture({
        match: { userMessage: "weather in parsi", toolResultContains: "[ERROR:InvalidArgs]" },
        response: { toolCalls: [{ name: "lookup", arguments: JSON.stringify({ city: "Paris" }), id: "c_fixed" }] },
      });
      mock.addFixture({
        match: { userMessage: "weather in parsi", hasToolResult: false },
        response: { toolCalls: [{ name: "lookup", arguments: "{city: Paris", id: "c_bad" }] },
      });
      mock.addFixture({ match: { userMessage: "weather in parsi", hasToolResult: true }, response: { content: "Found Paris." } });
      const before = calls.length;
      const log = vi.spyOn(console, "log");
      const { chunks } = await turn("weather in parsi");
      expect(calls.slice(before)).toEqual([{ city: "Paris" }]);
      expect(textOf(chunks)).toBe("Found Paris.");
      const lines = log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('"turn.step"'));
      log.mockRestore();
      expect(lines.some((l) => l.includes('"outcome":"repaired"'))).toBe(true);
    });

    it("an unknown tool is not repaired into another: a visible NoSuchTool error the model sees, then text", async () => {
      mock.addFixture({
        match: { userMessage: "use the teleporter", hasToolResult: false },
        response: { toolCalls: [{ name: "teleport", arguments: "{}", id: "c_tp" }] },
      });
      mock.addFixture({ match: { userMessage: "use the teleporter", hasToolResult: true }, response: { content: "I cannot teleport." } });
      const before = calls.length;
      const { chunks, answer } = await turn("use the teleporter");
      expect(calls.length).toBe(before);
      // The call's error (a tool-input-error chunk in AI SDK 7, an output error before) is the one the card shows: not aborted after.
      const errors = chunks.filter((c) => (c.type === "tool-input-error" || c.type === "tool-output-error") && c.toolCallId === "c_tp") as unknown as {
        errorText: string;
      }[];
      expect(errors.map((e) => e.errorText)).toEqual([expect.stringMatching(/^\[ERROR:NoSuchTool\] The model called "teleport"/)]);
      // The model's next request carries the failure as the call's result, with the tools it may use.
      const toolResult = (mock.getRequests().at(-1)?.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === "tool");
      expect(toolResult?.content).toMatch(/unavailable tool 'teleport'.*lookup, explode/);
      expect(textOf(chunks)).toBe("I cannot teleport.");
      expect(answer.blocks.find((b) => b.kind === "tool")).toMatchObject({
        status: "output-error",
        toolName: "teleport",
        errorText: expect.stringMatching(/^\[ERROR:NoSuchTool\]/),
      });
    });

    it("a tool that throws ends as a visible tool error and the model answers", async () => {
      mock.addFixture({
        match: { userMessage: "blow it up", hasToolResult: false },
        response: { toolCalls: [{ name: "explode", arguments: "{}", id: "c_ex" }] },
      });
      mock.addFixture({ match: { userMessage: "blow it up", hasToolResult: true }, response: { content: "The tool failed, sorry." } });
      const { chunks } = await turn("blow it up");
      expect(chunks.find((c) => c.type === "tool-output-error")).toBeDefined();
      expect(ending(chunks)).toBe("text-delta");
    });

    it("the step limit ends with a visible notice", async () => {
      mock.addFixture({ match: { userMessage: "loop forever" }, response: { toolCalls: [{ name: "lookup", arguments: JSON.stringify({ city: "Rome" }) }] } });
      const { chunks, stored } = await turn("loop forever", { stepLimit: 3 });
      expect(chunks.find((c) => c.type === "data-notice")).toMatchObject({ data: { code: "StepLimit" } });
      expect(ending(chunks)).toBe("data-notice");
      expect(stored.status).toBe("done");
    });

    it("an upstream that dies in the middle of a tool call ends with a visible error", async () => {
      mock.addFixture({
        match: { userMessage: "die mid call" },
        response: { toolCalls: [{ name: "lookup", arguments: JSON.stringify({ city: "A very long city name to stream slowly" }) }] },
        truncateAfterChunks: 2,
      });
      const before = calls.length;
      const { chunks, stored, answer } = await turn("die mid call");
      expect(ending(chunks)).toBe("data-error");
      expect(stored.status).toBe("error");
      expect(answer.blocks.find((b) => b.kind === "error")).toBeDefined();
      // The half-streamed call never ran.
      expect(calls.length).toBe(before);
    });
  });
});
