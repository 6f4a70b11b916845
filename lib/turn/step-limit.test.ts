// The step limit over one answer, approvals included (a real database and a scripted model): a model
// that asks for the same approval-needing tool at every step, approved every time, ends at
// PARLEY_STEP_LIMIT steps in total with the "Step limit reached" notice, its last request not run;
// Continue then lets the answer go on with a new allowance of steps.
import type { LLMock } from "@copilotkit/aimock";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONTINUE_ANSWER } from "../chat/history";
import { readChunks, storedAnswer, teamWithProvider } from "@/test/support/test-turns";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

let mock: LLMock;
const LIMIT = 3;

describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  /** A tool that asks before every call and counts its runs. */
  function askingTool() {
    const runs: unknown[] = [];
    const ping = tool({
      description: "Pings a host",
      inputSchema: z.object({ host: z.string() }),
      needsApproval: true,
      execute: async (input) => {
        runs.push(input);
        return { pong: input.host };
      },
    });
    return { runs, tools: { ping } };
  }

  /** The call of the answer that waits for a person once the turn has ended (its card's Approve). */
  const waiting = async (chatId: string) =>
    (await storedAnswer(chatId)).blocks.find((b) => b.kind === "tool" && b.status === "approval-requested")?.approvalId ?? undefined;
  const notices = (blocks: { kind: string; name: string | null; data: unknown }[]) =>
    blocks.filter((b) => b.kind === "data" && b.name === "notice").map((b) => b.data as { code: string; message: string });

  async function turn(
    ctx: Awaited<ReturnType<typeof teamWithProvider>>["ctx"],
    request: Parameters<typeof runTurn>[1],
    tools: ReturnType<typeof askingTool>["tools"],
  ) {
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(ctx, request, { tools, stepLimit: LIMIT, onStored: done.onStored }));
    await done.promise;
    return chunks;
  }

  it("approving a model that asks again at every step ends the answer at the step limit, approvals included; Continue goes on", async () => {
    const ping = { toolCalls: [{ name: "ping", arguments: JSON.stringify({ host: "example.org" }) }] };
    mock.addFixture({ match: { userMessage: "ping forever" }, response: ping });
    // After Continue the last user message is the request to go on.
    mock.addFixture({ match: { userMessage: CONTINUE_ANSWER }, response: ping });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const { runs, tools } = askingTool();
    let chunks = await turn(ctx, { chatId: chat.id, text: "ping forever" }, tools);
    // Someone approves whatever is asked, as long as it is asked (more times than the limit allows).
    let approvals = 0;
    for (let approvalId = await waiting(chat.id); approvalId && approvals < LIMIT * 3; approvalId = await waiting(chat.id)) {
      approvals++;
      chunks = await turn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, tools);
    }

    const answer = await storedAnswer(chat.id);
    // LIMIT steps in all: each asked once; the first LIMIT - 1 were approved and ran, the last was not run.
    expect(answer.blocks.filter((b) => b.kind === "step")).toHaveLength(LIMIT);
    expect(approvals).toBe(LIMIT - 1);
    expect(runs).toHaveLength(LIMIT - 1);
    const calls = answer.blocks.filter((b) => b.kind === "tool");
    expect(calls.map((b) => b.status)).toEqual([...Array<string>(LIMIT - 1).fill("output-available"), "aborted"]);
    expect(calls.at(-1)?.errorText).toBe("[ERROR:Aborted] Not run: the answer reached its step limit.");
    expect(notices(answer.blocks).at(-1)).toMatchObject({
      code: "StepLimit",
      message: expect.stringMatching(/^Step limit reached: the model used all 3 steps of this answer/),
    });
    expect(chunks.some((c) => c.type === "data-notice" && (c.data as { code: string }).code === "StepLimit")).toBe(true);
    expect(answer.status).toBe("done");

    // Continue: the same answer goes on, with a new allowance; the model asks again, and waits for a person.
    chunks = await turn(ctx, { chatId: chat.id, continue: answer.id }, tools);
    expect(await waiting(chat.id)).toBeDefined();
    const continued = await storedAnswer(chat.id);
    expect(continued.id).toBe(answer.id);
    expect(continued.blocks.filter((b) => b.kind === "step")).toHaveLength(LIMIT + 1);
    expect(notices(continued.blocks).map((n) => n.code)).not.toContain("StepLimit");
    expect(continued.blocks.filter((b) => b.kind === "tool").at(-1)?.status).toBe("approval-requested");
    // Approvals go on counting in the continued allowance: one more step runs, then the limit ends it again.
    approvals = 0;
    for (let approvalId = await waiting(chat.id); approvalId && approvals < LIMIT * 3; approvalId = await waiting(chat.id)) {
      approvals++;
      chunks = await turn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, tools);
    }
    expect(approvals).toBe(LIMIT - 1);
    const again = await storedAnswer(chat.id);
    expect(again.blocks.filter((b) => b.kind === "step")).toHaveLength(2 * LIMIT);
    expect(notices(again.blocks).at(-1)).toMatchObject({ code: "StepLimit" });
  });

  it("an answer continued after approvals gets only the steps left of the limit (counted from the database)", async () => {
    // Two steps without approval (quick), then one that asks: with a limit of 3, the approved call runs
    // and the model gets no further step beyond the third.
    const quick = tool({ description: "Quick", inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ q }) });
    const { runs, tools } = askingTool();
    mock.addFixture({ match: { userMessage: "quick then ask", hasToolResult: false }, response: { toolCalls: [{ name: "quick", arguments: '{"q":"one"}' }] } });
    mock.addFixture({ match: { userMessage: "quick then ask", hasToolResult: true }, response: { toolCalls: [{ name: "ping", arguments: '{"host":"a"}' }] } });
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const all = { ...tools, quick } as unknown as ReturnType<typeof askingTool>["tools"];
    await turn(ctx, { chatId: chat.id, text: "quick then ask" }, all);
    const approvalId = await waiting(chat.id);
    expect(approvalId).toBeDefined();
    expect((await storedAnswer(chat.id)).blocks.filter((b) => b.kind === "step")).toHaveLength(2);
    await turn(ctx, { chatId: chat.id, decisions: [{ approvalId: approvalId!, approved: true }] }, all);
    expect(runs).toHaveLength(1);
    const answer = await storedAnswer(chat.id);
    expect(answer.blocks.filter((b) => b.kind === "step")).toHaveLength(LIMIT);
    expect(notices(answer.blocks).at(-1)).toMatchObject({ code: "StepLimit" });
    expect(answer.blocks.filter((b) => b.kind === "tool" && b.status === "approval-requested")).toEqual([]);
  });
});
