// A turn with a model flagged for prompt-based tool calling, against a scripted upstream (aimock): the
// model's tool markup runs the tool exactly like a native call and is stored as the same blocks, the
// markup never shows as answer text, and markup that stays malformed ends in a visible error.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { readChunks, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";
import { adderTool, DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  type Req = { messages?: { role: string }[] };
  const sent = (marker: string) => (req: Req) => JSON.stringify(req.messages ?? []).includes(marker);
  /** Whether a tool result came back (as text in prompt mode; the system prompt mentions the tag too). */
  const hasResponse = (req: Req) => JSON.stringify(req.messages?.filter((m) => m.role !== "system") ?? []).includes("<tool_response>");

  async function promptModelTeam() {
    const team = await teamWithProvider(mock.url, "openai_chat", "prompt-model");
    await (await db()).model.update({ where: { id: team.model.id }, data: { toolCalling: "prompt" } });
    return team;
  }

  describe("prompt-based tool calling in a turn", () => {
    it("runs the tool from the model's markup and stores the same blocks as a native call", async () => {
      const marker = "prompt mode: what is 2+3";
      mock.addFixture({
        match: { predicate: (req) => sent(marker)(req) && !hasResponse(req) },
        response: { content: 'Let me add.\n<tool_call>\n{"name": "add", "arguments": {"a": 2, "b": 3}}\n</tool_call>' },
      });
      mock.addFixture({ match: { predicate: (req) => sent(marker)(req) && hasResponse(req) }, response: { content: "2 + 3 = 5." } });
      const { calls, add } = adderTool();
      const { ctx, chat } = await promptModelTeam();
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: marker }, { onStored: done.onStored, tools: { add } }));
      expect(calls).toEqual([{ a: 2, b: 3 }]);
      expect(textOf(chunks)).toBe("Let me add.\n2 + 3 = 5.");
      expect(chunks.some((c) => c.type === "data-error")).toBe(false);
      await done.promise;
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(blocks.map((b) => b.kind)).toEqual(["step", "text", "tool", "step", "text"]);
      expect(blocks.find((b) => b.kind === "tool")).toMatchObject({ toolName: "add", status: "output-available", input: { a: 2, b: 3 }, output: { sum: 5 } });
      expect(JSON.stringify(blocks)).not.toContain("tool_call");
      // The upstream got the tools in the system prompt (no native tools) and the result back as text.
      const reqs = mock.getRequests().filter((r) => sent(marker)(r.body as Req));
      expect(reqs).toHaveLength(2);
      const first = reqs[0].body as { tools?: unknown; messages: { role: string; content: unknown }[] };
      expect(first.tools).toBeUndefined();
      expect(JSON.stringify(first.messages[0])).toContain("Adds two numbers");
      const second = reqs[1].body as { messages: { role: string }[] };
      expect(second.messages.some((m) => m.role === "tool")).toBe(false);
      expect(JSON.stringify(second.messages)).toMatch(/sum[\\"]*:5/);
    });

    it("stores step, tool, step, text when the model answers with the markup alone", async () => {
      const marker = "prompt mode: add 4 and 5";
      mock.addFixture({
        match: { predicate: (req) => sent(marker)(req) && !hasResponse(req) },
        response: { content: '<tool_call>{"name": "add", "arguments": {"a": 4, "b": 5}}</tool_call>\n' },
      });
      mock.addFixture({ match: { predicate: (req) => sent(marker)(req) && hasResponse(req) }, response: { content: "9." } });
      const { calls, add } = adderTool();
      const { ctx, chat } = await promptModelTeam();
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: marker }, { onStored: done.onStored, tools: { add } }));
      expect(calls).toEqual([{ a: 4, b: 5 }]);
      expect(textOf(chunks)).toBe("9.");
      await done.promise;
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(blocks.map((b) => b.kind)).toEqual(["step", "tool", "step", "text"]);
    });

    it("asks for approval before running a tool called through markup, like a native call", async () => {
      const marker = "prompt mode: add with approval";
      mock.addFixture({
        match: { predicate: (req) => sent(marker)(req) && !hasResponse(req) },
        response: { content: '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 1}}</tool_call>' },
      });
      const { calls: ran, add } = adderTool({ needsApproval: true });
      const { ctx, chat } = await promptModelTeam();
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: marker }, { onStored: done.onStored, tools: { add } }));
      expect(ran).toEqual([]);
      expect(chunks.find((c) => c.type === "tool-approval-request")).toBeTruthy();
      expect(chunks.find((c) => c.type === "tool-input-available")).toMatchObject({ toolName: "add", input: { a: 1, b: 1 } });
      await done.promise;
      // Stored as a waiting call, as a native one is, and the markup is nowhere in the answer.
      const { blocks } = await storedAnswer(chat.id);
      expect(blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "approval-requested", toolName: "add", input: { a: 1, b: 1 } });
      expect(JSON.stringify(blocks)).not.toContain("tool_call");
    });

    it("re-asks malformed markup twice, runs nothing, and ends with a visible error", async () => {
      const marker = "prompt mode: broken markup";
      mock.addFixture({ match: { predicate: sent(marker) }, response: { content: 'Adding.<tool_call>{"name": "add", "arguments": {a: 2}}</tool_call>' } });
      const { calls, add } = adderTool();
      const { ctx, chat } = await promptModelTeam();
      const done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: marker }, { onStored: done.onStored, tools: { add } }));
      expect(calls).toEqual([]);
      const reqs = mock.getRequests().filter((r) => sent(marker)(r.body as Req));
      expect(reqs).toHaveLength(3);
      expect(JSON.stringify(reqs[2].body)).toContain("could not be read");
      expect(chunks.find((c) => c.type === "data-error")).toMatchObject({ data: { code: "ToolMarkupInvalid" } });
      expect(textOf(chunks)).toBe("Adding.");
      await done.promise;
      const answer = await storedAnswer(chat.id);
      expect(answer.blocks.find((b) => b.kind === "error")).toMatchObject({ errorCode: "ToolMarkupInvalid" });
      expect(JSON.stringify(answer.blocks)).not.toContain("tool_call");
    });
  });
});
