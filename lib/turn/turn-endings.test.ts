// Every way a turn can end leaves no tool block waiting or running (tool-states.ts), on a real
// database: the stored block and the message as a reload reads it (loadMessagePage) end in a final
// face. Finish, stop while a call waits for approval and another runs, process death (recovery),
// superseded approval, step limit, upstream error.
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db/client";
import { readChunks, readUntil, storedAnswer, teamWithProvider } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { loadMessagePage } from "../chat/history";
import { markInterrupted } from "../messages/recovery";
import { FINAL_STATES, type ToolState } from "../messages/tool-states";
import { streamRegistry } from "./stream-registry";
import { stopTurn } from "./turn-follow";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  const quick = tool({ description: "Answers at once", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ answer: q }) });
  /** Runs until the turn is stopped. */
  const slow = tool({
    description: "Takes its time",
    inputSchema: z.object({ q: z.string() }),
    execute: (_input, { abortSignal }) =>
      new Promise<{ done: boolean }>((_resolve, reject) => abortSignal?.addEventListener("abort", () => reject(abortSignal.reason))),
  });
  const guarded = tool({
    description: "Needs a person",
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }) => ({ deleted: path }),
  });
  const tools = { quick, slow, guarded };

  type Block = Awaited<ReturnType<typeof storedAnswer>>["blocks"][number];
  const toolBlocks = (blocks: Block[]) => blocks.filter((b) => b.kind === "tool");
  const open = (blocks: Block[]) =>
    toolBlocks(blocks).filter((b) => !FINAL_STATES.includes(b.status as ToolState) || (b.extras as { preliminary?: boolean } | null)?.preliminary);

  /** The tool parts of the chat's last answer as a reload reads them. */
  async function reloadedToolParts(chatId: string) {
    const { messages } = await loadMessagePage(chatId);
    return messages.at(-1)!.parts.filter((p) => p.type.startsWith("tool-")) as { type: string; state: string; errorText?: string }[];
  }

  describe("how a turn ends: no tool block is left open", () => {
    it("finish: the call ran and is done, stored and reloaded", async () => {
      mock.addFixture({
        match: { userMessage: "end: finish", hasToolResult: false },
        response: { toolCalls: [{ name: "quick", arguments: '{"q":"x"}', id: "c_fin" }] },
      });
      mock.addFixture({ match: { userMessage: "end: finish", hasToolResult: true }, response: { content: "Done." } });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: finish" }, { tools, onStored: done.onStored }));
      expect((await done.promise).status).toBe("done");
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(toolBlocks(blocks).map((b) => b.status)).toEqual(["output-available"]);
      expect(open(blocks)).toEqual([]);
      expect((await reloadedToolParts(chat.id)).map((p) => p.state)).toEqual(["output-available"]);
    });

    it("stop while one call waits for approval and another runs: 'Stopped before it ran' and 'Stopped while it ran'", async () => {
      mock.addFixture({
        match: { userMessage: "end: stop" },
        response: {
          toolCalls: [
            { name: "slow", arguments: '{"q":"y"}', id: "c_slow" },
            { name: "guarded", arguments: '{"path":"/tmp/a"}', id: "c_guard" },
          ],
        },
      });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      const res = await runTurn(ctx, { chatId: chat.id, text: "end: stop" }, { tools, onStored: done.onStored });
      const { rest } = await readUntil(
        res,
        (c) => c.some((x) => x.type === "tool-approval-request") && c.some((x) => x.type === "tool-input-available" && x.toolCallId === "c_slow"),
      );
      expect(await stopTurn(ctx, chat.id)).toEqual({ stopped: true });
      const chunks = await rest;
      // The browser hears it live too: both calls end with an aborted error.
      const ends = chunks.filter((c) => c.type === "tool-output-error").map((c) => [c.toolCallId, c.errorText]);
      expect(ends).toEqual(
        expect.arrayContaining([
          ["c_guard", "[ERROR:Aborted] Stopped before it ran."],
          ["c_slow", expect.stringContaining("[ERROR:Aborted] Stopped while it ran")],
        ]),
      );
      expect((await done.promise).status).toBe("stopped");
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(open(blocks)).toEqual([]);
      const byCall = Object.fromEntries(toolBlocks(blocks).map((b) => [b.toolCallId, b]));
      expect(byCall.c_guard).toMatchObject({ status: "aborted", errorCode: "Aborted", errorText: "[ERROR:Aborted] Stopped before it ran." });
      expect(byCall.c_slow).toMatchObject({ status: "aborted", errorCode: "Aborted" });
      expect(byCall.c_guard.finishedAt).toBeInstanceOf(Date);
      const parts = await reloadedToolParts(chat.id);
      expect(parts.map((p) => p.state)).toEqual(["output-error", "output-error"]);
      expect(parts.map((p) => p.errorText)).toEqual(expect.arrayContaining(["[ERROR:Aborted] Stopped before it ran."]));
    });

    it("the server stops (SIGTERM) while a call runs: the answer is kept, marked interrupted, the call 'Interrupted'", async () => {
      mock.addFixture({ match: { userMessage: "end: shutdown" }, response: { toolCalls: [{ name: "slow", arguments: '{"q":"z"}', id: "c_down" }] } });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      const res = await runTurn(ctx, { chatId: chat.id, text: "end: shutdown" }, { tools, onStored: done.onStored });
      const { rest } = await readUntil(res, (c) => c.some((x) => x.type === "tool-input-available" && x.toolCallId === "c_down"));
      // What lib/turn/stop-turns.ts does to each turn of a stopping instance.
      (await streamRegistry()).local.get(chat.id)!.abort("shutdown");
      const chunks = await rest;
      // The browser hears it live: interrupted, not stopped by a person.
      expect(chunks.filter((c) => c.type === "tool-output-error").map((c) => [c.toolCallId, c.errorText])).toEqual([
        ["c_down", expect.stringContaining("[ERROR:Aborted] Interrupted: the server stopped while this call ran")],
      ]);
      expect(chunks).toContainEqual({ type: "message-metadata", messageMetadata: { status: "interrupted" } });
      expect(chunks.some((c) => c.type === "data-notice" && (c.data as { code: string }).code === "Stopped")).toBe(false);
      expect((await done.promise).status).toBe("interrupted");
      const answer = await storedAnswer(chat.id);
      expect(answer).toMatchObject({ status: "interrupted", finishReason: "interrupted" });
      expect(open(answer.blocks)).toEqual([]);
      expect((await reloadedToolParts(chat.id)).map((p) => [p.state, p.errorText])).toEqual([
        ["output-error", expect.stringContaining("Interrupted: the server stopped while this call ran")],
      ]);
    });

    it("stop while the turn still gathers its tools (a slow MCP server): it stops, and the model is never asked", async () => {
      mock.addFixture({ match: { userMessage: "end: stop while gathering" }, response: { content: "Answered anyway." } });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      let gathering!: () => void;
      const gatherStarted = new Promise<void>((r) => (gathering = r));
      let letGo!: () => void;
      const gate = new Promise<void>((r) => (letGo = r));
      const slowServers = async () => {
        gathering();
        await gate;
        return { tools: {}, notices: [], offered: [] };
      };
      const turn = runTurn(ctx, { chatId: chat.id, text: "end: stop while gathering" }, { mcpTools: slowServers, onStored: done.onStored });
      await gatherStarted;
      // The turn holds its chat (its rows are written while the tools are gathered).
      await expect.poll(async () => (await (await db()).chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId).not.toBeNull();
      expect(await stopTurn(ctx, chat.id)).toEqual({ stopped: true });
      letGo();
      const chunks = await readChunks(await turn);
      expect((await done.promise).status).toBe("stopped");
      expect(chunks.map((c) => (c.type === "text-delta" ? c.delta : "")).join("")).not.toContain("Answered anyway");
      expect(mock.getRequests().some((r) => JSON.stringify(r.body).includes("end: stop while gathering"))).toBe(false);
    });

    it("process death: recovery ends open calls as 'Interrupted' and final text", async () => {
      const { ctx, chat } = await teamWithProvider(mock.url);
      const prisma = await db();
      const message = await prisma.message.create({ data: { id: `dead-${chat.id}`, chatId: chat.id, role: "assistant", status: "streaming" } });
      await prisma.block.createMany({
        data: [
          { messageId: message.id, ordinal: 0, kind: "text", status: "streaming", text: "Let me look" },
          { messageId: message.id, ordinal: 1, kind: "tool", status: "input-available", toolName: "slow", toolCallId: "d1", input: { q: "z" } },
          {
            messageId: message.id,
            ordinal: 2,
            kind: "tool",
            status: "approval-requested",
            toolName: "guarded",
            toolCallId: "d2",
            input: { path: "/x" },
            approvalId: "ap-d2",
          },
          {
            messageId: message.id,
            ordinal: 3,
            kind: "tool",
            status: "output-available",
            toolName: "quick",
            toolCallId: "d3",
            input: { q: "z" },
            output: { answer: "z" },
          },
        ],
      });
      expect(await markInterrupted(prisma, { exclusive: true })).toBeGreaterThanOrEqual(1);
      const answer = await storedAnswer(chat.id);
      expect(answer.status).toBe("interrupted");
      expect(open(answer.blocks)).toEqual([]);
      expect(answer.blocks.map((b) => b.status)).toEqual(["done", "aborted", "aborted", "output-available"]);
      expect(answer.blocks[1].errorText).toMatch(/^\[ERROR:Aborted\] Interrupted/);
      expect(answer.blocks[2].errorText).toMatch(/^\[ERROR:Aborted\] Interrupted: the server stopped before this call ran/);
      const parts = await reloadedToolParts(chat.id);
      expect(parts.map((p) => p.state)).toEqual(["output-error", "output-error", "output-available"]);
      void ctx;
    });

    it("superseded approval: a new message ends the waiting call as denied, and the answer has no open call", async () => {
      mock.addFixture({
        match: { userMessage: "end: supersede", hasToolResult: false },
        response: { toolCalls: [{ name: "guarded", arguments: '{"path":"/tmp/s"}', id: "c_sup" }] },
      });
      mock.onMessage("end: something else", { content: "Sure." });
      const { ctx, chat } = await teamWithProvider(mock.url);
      let done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: supersede" }, { tools, onStored: done.onStored }));
      await done.promise;
      const waiting = await storedAnswer(chat.id);
      expect(toolBlocks(waiting.blocks).map((b) => b.status)).toEqual(["approval-requested"]);
      done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: something else" }, { tools, onStored: done.onStored }));
      await done.promise;
      const prisma = await db();
      const before = await prisma.block.findMany({ where: { messageId: waiting.id }, orderBy: { ordinal: "asc" } });
      expect(open(before)).toEqual([]);
      expect(toolBlocks(before)[0]).toMatchObject({ status: "output-denied", decisionReason: "superseded by a new message" });
    });

    it("superseded after a decision: an approved call that never ran ends 'Not run', a denied one stays denied", async () => {
      // An answer whose decisions were stored but whose continuation never ran the calls (see the next test).
      mock.onMessage("end: after decided", { content: "Fine." });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const prisma = await db();
      const message = await prisma.message.create({ data: { id: `decided-${chat.id}`, chatId: chat.id, role: "assistant", status: "done" } });
      const decided = {
        kind: "tool" as const,
        status: "approval-responded" as const,
        toolName: "guarded",
        input: { path: "/x" },
        decidedById: ctx.user.id,
        decidedAt: new Date(),
      };
      await prisma.block.createMany({
        data: [
          { ...decided, messageId: message.id, ordinal: 0, toolCallId: "r1", approvalId: "ap-r1", approved: true },
          { ...decided, messageId: message.id, ordinal: 1, toolCallId: "r2", approvalId: "ap-r2", approved: false, decisionReason: "not that one" },
        ],
      });
      const done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: after decided" }, { tools, onStored: done.onStored }));
      expect((await done.promise).status).toBe("done");
      const before = await prisma.block.findMany({ where: { messageId: message.id }, orderBy: { ordinal: "asc" } });
      expect(open(before)).toEqual([]);
      expect(before[0]).toMatchObject({ status: "aborted", errorCode: "Aborted", errorText: "[ERROR:Aborted] Not run: a new message was sent." });
      expect(before[1]).toMatchObject({ status: "output-denied", decisionReason: "not that one" });
      const { messages } = await loadMessagePage(chat.id);
      const parts = messages.find((m) => m.id === message.id)!.parts as { state: string; errorText?: string }[];
      expect(parts.map((p) => p.state)).toEqual(["output-error", "output-denied"]);
      expect(parts[0].errorText).toBe("[ERROR:Aborted] Not run: a new message was sent.");
    });

    it("a continuation that fails before it streams ends its approved call 'Not run' and frees the chat", async () => {
      mock.addFixture({
        match: { userMessage: "end: failed continuation", hasToolResult: false },
        response: { toolCalls: [{ name: "guarded", arguments: '{"path":"/tmp/f"}', id: "c_fc" }] },
      });
      mock.onMessage("end: after the failure", { content: "Still here." });
      const { ctx, chat } = await teamWithProvider(mock.url);
      let done = storedTurn();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: failed continuation" }, { tools, onStored: done.onStored }));
      await done.promise;
      const { approvalId } = chunks.find((c) => c.type === "tool-approval-request") as unknown as { approvalId: string };
      const prisma = await db();
      const broken = () => Promise.reject(new Error("the tool list could not be read"));
      await expect(runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools, mcpTools: broken })).rejects.toThrow(
        "the tool list could not be read",
      );
      // The chat is given back once the answer is closed (in the background, as a failed turn releases it).
      await expect.poll(async () => (await prisma.chat.findUniqueOrThrow({ where: { id: chat.id } })).activeStreamId).toBeNull();
      const failed = await storedAnswer(chat.id);
      expect(failed.status).toBe("error");
      expect(open(failed.blocks)).toEqual([]);
      expect(toolBlocks(failed.blocks)[0]).toMatchObject({ status: "aborted", errorText: "[ERROR:Aborted] Not run: the answer failed." });
      // And the chat takes the next message.
      done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: after the failure" }, { tools, onStored: done.onStored }));
      expect((await done.promise).status).toBe("done");
    });

    it("a call whose input still streams carries its tool's metadata from its first chunk (the card's name)", async () => {
      const named = { ...quick, metadata: { source: "mcp", serverName: "Faults", toolName: "explode" } };
      mock.addFixture({
        match: { userMessage: "end: named", hasToolResult: false },
        response: { toolCalls: [{ name: "Faults__explode", arguments: '{"q":"a long input in chunks"}', id: "c_named" }] },
      });
      mock.addFixture({ match: { userMessage: "end: named", hasToolResult: true }, response: { content: "Exploded." } });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: named" }, { tools: { Faults__explode: named } }));
      expect(chunks.find((c) => c.type === "tool-input-start")).toMatchObject({
        toolName: "Faults__explode",
        toolMetadata: { serverName: "Faults", toolName: "explode" },
      });
    });

    it("step limit: every call of the last step is final and the notice is stored", async () => {
      mock.addFixture({ match: { userMessage: "end: step limit" }, response: { toolCalls: [{ name: "quick", arguments: '{"q":"again"}' }] } });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      await readChunks(await runTurn(ctx, { chatId: chat.id, text: "end: step limit" }, { tools, stepLimit: 2, onStored: done.onStored }));
      expect((await done.promise).status).toBe("done");
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(toolBlocks(blocks)).toHaveLength(2);
      expect(open(blocks)).toEqual([]);
      expect(blocks.find((b) => b.kind === "data" && b.name === "notice")?.data).toMatchObject({ code: "StepLimit" });
      expect((await reloadedToolParts(chat.id)).every((p) => p.state === "output-available")).toBe(true);
    });

    it("upstream error in the middle of a call: a visible error, and no call left open", async () => {
      // The provider sends the call's name, then stalls mid-arguments until the turn times out.
      mock.addFixture({
        match: { userMessage: "end: upstream error" },
        response: { toolCalls: [{ name: "quick", arguments: JSON.stringify({ q: "a long argument that streams in several chunks" }), id: "c_err" }] },
        chunkSize: 4,
        streamingProfile: { ttft: 0, tps: 1 },
      });
      const { ctx, chat } = await teamWithProvider(mock.url);
      const done = storedTurn();
      const chunks = await readChunks(
        await runTurn(ctx, { chatId: chat.id, text: "end: upstream error" }, { tools, idleTimeoutMs: 400, onStored: done.onStored }),
      );
      expect(chunks.find((c) => c.type === "data-error")).toMatchObject({ data: { code: "ProviderTimeout" } });
      expect((await done.promise).status).toBe("error");
      const blocks = (await storedAnswer(chat.id)).blocks;
      expect(open(blocks)).toEqual([]);
      // A call whose start reached Parley is aborted as "Not run: the answer failed." (tool-states.test.ts).
      for (const b of toolBlocks(blocks)) expect(b).toMatchObject({ status: "aborted", errorText: "[ERROR:Aborted] Not run: the answer failed." });
      expect((await reloadedToolParts(chat.id)).every((p) => p.state === "output-error")).toBe(true);
    });
  });
});
