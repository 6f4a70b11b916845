// Usage of an answer that goes on after an approval: the stored answer (and the browser, at the end of
// the turn) holds the tokens of both turns, each counted once, with the details (cached, reasoning) of
// the first kept when the second reports none, and unchanged when the second turn fails before it
// finishes. The upstream is scripted, so every request's usage is known.
import type http from "node:http";
import { tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "../db/client";
import { readChunks, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";
import { json, startScripted } from "@/test/support/test-upstreams";
import { runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";

type Upstream = Awaited<ReturnType<typeof startScripted>>;

/** An OpenAI Chat Completions stream of `delta` chunks ending with `usage`. */
function chatStream(res: http.ServerResponse, deltas: object[], finish: string, usage: object) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (choices: object[], extra = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "gpt-test", choices, ...extra })}\n\n`;
  for (const delta of deltas) res.write(chunk([{ index: 0, delta, finish_reason: null }]));
  res.write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
  res.write(chunk([], { usage }));
  res.end("data: [DONE]\n\n");
}

/** The first request asks for `delete_file` (with cached and reasoning tokens); the next answers, or fails. */
let failContinuation = false;
let upstream: Upstream;
turnHarness(() => {});
beforeAll(async () => {
  upstream = await startScripted((req, res) => {
    const body = JSON.parse(req.body) as { messages: { role: string }[] };
    if (!body.messages.some((m) => m.role === "tool")) {
      const call = {
        tool_calls: [{ index: 0, id: "call_usage", type: "function", function: { name: "delete_file", arguments: JSON.stringify({ path: "/tmp/u.txt" }) } }],
      };
      return chatStream(res, [{ role: "assistant" }, call], "tool_calls", {
        prompt_tokens: 100,
        completion_tokens: 10,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 3 },
      });
    }
    if (failContinuation) return json(res, 500, { error: { message: "upstream exploded", type: "server_error" } });
    chatStream(res, [{ role: "assistant", content: "Deleted." }], "stop", { prompt_tokens: 120, completion_tokens: 8 });
  });
});
afterAll(() => upstream?.stop());

const del = tool({ description: "Deletes a file", inputSchema: z.object({ path: z.string() }), needsApproval: true, execute: async () => ({ ok: true }) });

/** Asks, approves, and returns the stored answer before and after the approval. */
async function approvedAnswer() {
  const { ctx, chat } = await teamWithProvider(upstream.url);
  const asked = storedTurn();
  const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "delete it" }, { tools: { delete_file: del }, onStored: asked.onStored }));
  await asked.promise;
  const before = await storedAnswer(chat.id);
  const approvalId = String((chunks.find((c) => c.type === "tool-approval-request") as { approvalId?: string }).approvalId);
  const went = storedTurn();
  const after = await readChunks(
    await runTurn(ctx, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { tools: { delete_file: del }, onStored: went.onStored }),
  );
  const turn = await went.promise;
  return { before, after: await storedAnswer(chat.id), chunks: after, turn };
}

describe("usage of a continued answer", () => {
  it("adds the second turn's tokens once, and keeps details it did not report", async () => {
    failContinuation = false;
    const { before, after, chunks } = await approvedAnswer();
    expect(before).toMatchObject({ inputTokens: 100, outputTokens: 10, cachedInputTokens: 40, reasoningTokens: 3 });
    expect(textOf(chunks)).toBe("Deleted.");
    expect(after).toMatchObject({ status: "done", inputTokens: 220, outputTokens: 18, cachedInputTokens: 40, reasoningTokens: 3 });
    // The browser hears the same totals as a reload shows, not this turn's usage mixed into the earlier.
    const finish = chunks.find((c) => c.type === "finish") as { messageMetadata?: { usage?: object } };
    expect(finish.messageMetadata?.usage).toMatchObject({ inputTokens: 220, outputTokens: 18, cachedInputTokens: 40, reasoningTokens: 3 });
    const records = await (await db()).usageRecord.findMany({ where: { messageId: after.id }, orderBy: { createdAt: "asc" } });
    const counts = (r: (typeof records)[number]) => [r.inputTokens, r.outputTokens, r.cachedInputTokens, r.reasoningTokens];
    expect(records.map(counts)).toEqual([
      [100, 10, 40, 3],
      [120, 8, 0, 0],
    ]);
  });

  it("a continuation that fails before any usage leaves the answer's usage as it was", async () => {
    failContinuation = true;
    const { after, turn } = await approvedAnswer();
    expect(turn.status).toBe("error");
    expect(after).toMatchObject({ inputTokens: 100, outputTokens: 10, cachedInputTokens: 40, reasoningTokens: 3 });
    const records = await (await db()).usageRecord.findMany({ where: { messageId: after.id } });
    expect(records.map((r) => [r.inputTokens, r.outputTokens, r.cachedInputTokens, r.reasoningTokens])).toEqual([[100, 10, 40, 3]]);
  });
});
