// Approval on a real database and a scripted model: a call that needs a person waits as a stored
// block; approving runs it once with the stored input; denying tells the model why; forged, foreign,
// replayed or partial decisions are refused and run nothing; a restart in between changes nothing; a
// new message supersedes waiting calls.
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db/client";
import { chatRequestSchema } from "../turn/request";
import { shutdown, ready } from "../startup";
import { readChunks, readUntil, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  const stored = storedTurn;

  /** A tool that needs approval and records every execution; with `gate`, each run ends only once it resolves. */
  function guardedDelete(gate?: Promise<void>) {
    const runs: unknown[] = [];
    const del = tool({
      description: "Deletes a file",
      inputSchema: z.object({ path: z.string() }),
      needsApproval: true,
      execute: async (input) => {
        runs.push(input);
        await gate;
        return { deleted: input.path };
      },
    });
    return { runs, tools: { delete_file: del } };
  }

  async function pendingTurn(word: string) {
    mock.addFixture({
      match: { userMessage: word, hasToolResult: false },
      response: { toolCalls: [{ name: "delete_file", arguments: JSON.stringify({ path: `/tmp/${word}.txt` }), id: `call_${word}` }] },
    });
    mock.addFixture({
      match: { userMessage: word, hasToolResult: true, toolResultContains: "[ERROR:Denied]" },
      response: { content: `Understood, I did not delete ${word}.` },
    });
    mock.addFixture({ match: { userMessage: word, hasToolResult: true }, response: { content: `Deleted ${word}.` } });
    const setup = await teamWithProvider(mock.url, "openai_chat");
    const guard = guardedDelete();
    const done = stored();
    const chunks = await readChunks(
      await runTurn(setup.ctx, { chatId: setup.chat.id, text: `please delete ${word}` }, { tools: guard.tools, onStored: done.onStored }),
    );
    await done.promise;
    const approval = chunks.find((c) => c.type === "tool-approval-request") as { approvalId: string } | undefined;
    return { ...setup, ...guard, approvalId: approval!.approvalId };
  }

  async function decide(setup: Awaited<ReturnType<typeof pendingTurn>>, decisions: { approvalId: string; approved: boolean; reason?: string }[]) {
    const done = stored();
    const chunks = await readChunks(await runTurn(setup.ctx, { chatId: setup.chat.id, decisions }, { tools: setup.tools, onStored: done.onStored }));
    return { chunks, turn: await done.promise };
  }

  describe("approval", () => {
    it("a call that needs approval waits, stored as a pending block, and nothing runs", async () => {
      const s = await pendingTurn("alpha");
      expect(s.runs).toEqual([]);
      const answer = await storedAnswer(s.chat.id);
      const block = answer.blocks.find((b) => b.kind === "tool")!;
      expect(block).toMatchObject({ status: "approval-requested", approvalId: s.approvalId, input: { path: "/tmp/alpha.txt" } });
    });

    it("approve: runs once with the stored input, the model continues in the same answer, audited", async () => {
      const s = await pendingTurn("bravo");
      const before = await storedAnswer(s.chat.id);
      const { chunks, turn } = await decide(s, [{ approvalId: s.approvalId, approved: true }]);
      expect(s.runs).toEqual([{ path: "/tmp/bravo.txt" }]);
      expect(textOf(chunks)).toBe("Deleted bravo.");
      expect(turn.messageId).toBe(before.id);
      const after = await storedAnswer(s.chat.id);
      const block = after.blocks.find((b) => b.kind === "tool")!;
      expect(block).toMatchObject({ status: "output-available", approved: true, decidedById: s.ctx.user.id, output: { deleted: "/tmp/bravo.txt" } });
      expect(block.decidedAt).toBeInstanceOf(Date);
      expect(after.blocks.at(-1)).toMatchObject({ kind: "text", text: "Deleted bravo." });
      // The answer's usage adds up both turns that wrote it; each turn has its own usage record.
      const records = await (await db()).usageRecord.findMany({ where: { messageId: before.id } });
      expect(records).toHaveLength(2);
      expect(after.inputTokens).toBe(records[0].inputTokens + records[1].inputTokens);
      expect(after.outputTokens).toBe(records[0].outputTokens + records[1].outputTokens);
      expect(after.outputTokens).toBeGreaterThan(before.outputTokens ?? 0);
      const event = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.ctx.team.id, action: "tool.approve" } });
      expect(event.data).toMatchObject({ tool: "delete_file", inputHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // Replaying the same decision runs nothing again.
      await expect(decide(s, [{ approvalId: s.approvalId, approved: true }])).rejects.toMatchObject({ status: 409 });
      expect(s.runs).toHaveLength(1);
    });

    it("approve clicked as soon as the card appears: the decision waits for the turn to be stored, then runs", async () => {
      const word = "hotel";
      mock.addFixture({
        match: { userMessage: `please delete ${word}`, hasToolResult: false },
        response: { toolCalls: [{ name: "delete_file", arguments: JSON.stringify({ path: `/tmp/${word}.txt` }), id: `call_${word}` }] },
      });
      mock.addFixture({ match: { userMessage: `please delete ${word}`, hasToolResult: true }, response: { content: `Deleted ${word}.` } });
      const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
      const guard = guardedDelete();
      const first = stored();
      const res = await runTurn(ctx, { chatId: chat.id, text: `please delete ${word}` }, { tools: guard.tools, onStored: first.onStored });
      let approvalId = "";
      const { rest } = await readUntil(res, (chunks) => {
        approvalId = (chunks.find((c) => c.type === "tool-approval-request")?.approvalId as string | undefined) ?? "";
        return !!approvalId;
      });
      // The card is on screen; the turn that asked is still finishing and being stored.
      const done = stored();
      const decided = runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools: guard.tools, onStored: done.onStored });
      await rest;
      const chunks = await readChunks(await decided);
      expect(textOf(chunks)).toBe(`Deleted ${word}.`);
      expect(guard.runs).toEqual([{ path: `/tmp/${word}.txt` }]);
      expect((await done.promise).status).toBe("done");
      expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "output-available", approved: true });
    });

    it("two tabs: a decision on a call the other tab approved, whose call still runs, is refused at once as already decided", async () => {
      const s = await pendingTurn("india");
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const { runs, tools: slow } = guardedDelete(gate);
      const first = stored();
      const winner = await runTurn(
        s.ctx,
        { chatId: s.chat.id, decisions: [{ approvalId: s.approvalId, approved: true }] },
        { tools: slow, onStored: first.onStored },
      );
      const reading = readChunks(winner);
      await expect.poll(() => runs.length).toBe(1);
      // The call runs (and would for minutes): the losing tab hears that it was decided, without waiting.
      const lost = await runTurn(
        s.ctx,
        { chatId: s.chat.id, decisions: [{ approvalId: s.approvalId, approved: false, reason: "too late" }] },
        { tools: slow },
      ).catch((e: unknown) => e);
      expect(lost).toMatchObject({ status: 409, message: "This tool call was already decided." });
      release();
      expect(textOf(await reading)).toBe("Deleted india.");
      expect((await first.promise).status).toBe("done");
      expect(runs).toHaveLength(1);
    });

    it("two tabs decide the same call at the same moment: one decision goes on, the other is told it was already decided", async () => {
      const s = await pendingTurn("juliet");
      const { runs, tools: counted } = guardedDelete();
      // Both sent before either turn holds the chat: neither sees the other running when it loads.
      const outcomes = await Promise.all(
        [true, false].map((approved) =>
          runTurn(s.ctx, { chatId: s.chat.id, decisions: [{ approvalId: s.approvalId, approved }] }, { tools: counted }).then(
            (res) => readChunks(res).then(() => "answered"),
            (e: unknown) => e,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === "answered")).toHaveLength(1);
      expect(outcomes.find((o) => o !== "answered")).toMatchObject({ status: 409, message: "This tool call was already decided." });
      // The call ran once if the Approve won, never if the Deny did.
      const approveWon = outcomes[0] === "answered";
      expect(runs).toHaveLength(approveWon ? 1 : 0);
      expect((await storedAnswer(s.chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({ approved: approveWon });
    });

    it("deny with a reason: nothing runs, the model sees the denial and answers, the next message works", async () => {
      const s = await pendingTurn("charlie");
      const { chunks } = await decide(s, [{ approvalId: s.approvalId, approved: false, reason: "that file is important" }]);
      expect(s.runs).toEqual([]);
      expect(textOf(chunks)).toBe("Understood, I did not delete charlie.");
      const sent = JSON.stringify(mock.getRequests().at(-1)?.body);
      expect(sent).toContain("[ERROR:Denied] The user denied this call: that file is important");
      const block = (await storedAnswer(s.chat.id)).blocks.find((b) => b.kind === "tool")!;
      expect(block).toMatchObject({ status: "output-denied", approved: false, decisionReason: "that file is important" });
      mock.onMessage("and now something else", { content: "Sure." });
      const done = stored();
      const next = await readChunks(await runTurn(s.ctx, { chatId: s.chat.id, text: "and now something else" }, { tools: s.tools, onStored: done.onStored }));
      expect(textOf(next)).toBe("Sure.");
    });

    it("unknown, foreign and partial decisions are refused and run nothing", async () => {
      const s = await pendingTurn("delta");
      const other = await pendingTurn("echo");
      await expect(decide(s, [{ approvalId: "forged-id", approved: true }])).rejects.toMatchObject({ status: 404 });
      await expect(decide(s, [{ approvalId: other.approvalId, approved: true }])).rejects.toMatchObject({ status: 404 });
      // Another user cannot decide in this chat at all.
      await expect(runTurn(other.ctx, { chatId: s.chat.id, decisions: [{ approvalId: s.approvalId, approved: true }] })).rejects.toMatchObject({ status: 404 });
      expect(s.runs).toEqual([]);
      expect(other.runs).toEqual([]);
      expect((await storedAnswer(s.chat.id)).blocks.find((b) => b.kind === "tool")?.status).toBe("approval-requested");
    });

    it("the request carries only {approvalId, approved, reason, input}: anything else is rejected; an input is an edit the tool's schema must accept", async () => {
      const base = { id: "c1", approvals: [{ approvalId: "a1", approved: true }] };
      expect(chatRequestSchema.safeParse(base).success).toBe(true);
      expect(chatRequestSchema.safeParse({ id: "c1", approvals: [{ approvalId: "a1", approved: true, output: { deleted: "x" } }] }).success).toBe(false);
      expect(chatRequestSchema.safeParse({ ...base, message: { role: "user", parts: [{ type: "text", text: "x" }] } }).success).toBe(false);
      // A tool without a stored input schema (this built-in one) cannot be edited: refused, nothing runs.
      const s = await pendingTurn("edit-me");
      const refused = await runTurn(
        s.ctx,
        { chatId: s.chat.id, decisions: [{ approvalId: s.approvalId, approved: true, input: { path: "/etc/passwd" } }] },
        { tools: s.tools },
      ).then(
        () => undefined,
        (err: { status?: number }) => err,
      );
      expect(refused).toMatchObject({ status: 400 });
      expect(s.runs).toEqual([]);
      expect((await storedAnswer(s.chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({
        status: "approval-requested",
        input: { path: "/tmp/edit-me.txt" },
      });
    });

    it("a restart between the request and the decision changes nothing", async () => {
      const s = await pendingTurn("foxtrot");
      await shutdown();
      delete (globalThis as Record<symbol, unknown>)[Symbol.for("parley.streamRegistry")];
      await ready();
      const { chunks } = await decide(s, [{ approvalId: s.approvalId, approved: true }]);
      expect(s.runs).toEqual([{ path: "/tmp/foxtrot.txt" }]);
      expect(textOf(chunks)).toBe("Deleted foxtrot.");
    });

    it("a new message while a call waits denies it as superseded, and the message is answered", async () => {
      const s = await pendingTurn("golf");
      mock.onMessage("never mind", { content: "Okay, moving on." });
      const done = stored();
      const chunks = await readChunks(await runTurn(s.ctx, { chatId: s.chat.id, text: "never mind" }, { tools: s.tools, onStored: done.onStored }));
      expect(textOf(chunks)).toBe("Okay, moving on.");
      expect(s.runs).toEqual([]);
      const prisma = await db();
      const block = await prisma.block.findFirstOrThrow({ where: { approvalId: s.approvalId } });
      expect(block).toMatchObject({ status: "output-denied", decisionReason: "superseded by a new message" });
      expect(JSON.stringify(mock.getRequests().at(-1)?.body)).toContain("superseded by a new message");
    });
  });
});
