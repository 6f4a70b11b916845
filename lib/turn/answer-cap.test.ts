// An answer is kept within PARLEY_MAX_ANSWER_CHARS: the cap itself over chunks, then a whole turn
// whose model writes far past it — the browser and the store get the first part and a notice, and
// the model is stopped.
import type { LLMock } from "@copilotkit/aimock";
import { afterEach, describe, expect, it } from "vitest";
import { answerCap } from "./answer-cap";
import { runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { parseSse, storedAnswer, teamWithProvider, textOf } from "@/test/support/test-turns";

const delta = (type: string, d: string) => (type === "tool-input-delta" ? { type, toolCallId: "c", inputTextDelta: d } : { type, id: "t", delta: d });

describe("answerCap", () => {
  it("passes chunks untouched (the same array) while under the limit", () => {
    const cap = answerCap(10);
    const step = [delta("text-delta", "hello")];
    expect(cap(step)).toBe(step);
    expect(cap([{ type: "finish" }])).toEqual([{ type: "finish" }]);
  });

  it("counts text, reasoning and tool input together, cuts the delta that crosses, then drops the rest once", () => {
    let stopped = 0;
    const cap = answerCap(10, () => stopped++);
    expect(cap([delta("reasoning-delta", "abcd"), delta("tool-input-delta", "ef")])).toHaveLength(2);
    const out = cap([delta("text-delta", "ghijkl"), { type: "text-end", id: "t" }]);
    expect(out[0]).toEqual(delta("text-delta", "ghij"));
    expect(out[1]).toMatchObject({ type: "data-notice", data: { code: "AnswerTruncated" } });
    expect(out[2]).toEqual({ type: "text-end", id: "t" });
    expect(cap([delta("text-delta", "more"), { type: "data-notice", data: { code: "Stopped", message: "Stopped." } }, { type: "abort" }])).toEqual([
      { type: "abort" },
    ]);
    expect(stopped).toBe(1);
  });

  it("never cuts between the halves of a surrogate pair", () => {
    const out = answerCap(3)([delta("text-delta", "ab😀")]);
    expect(out[0]).toEqual(delta("text-delta", "ab"));
  });
});

describe("a turn whose model writes past the limit", () => {
  let mock: LLMock;
  turnHarness((m) => (mock = m), { chunkSize: 5_000 });
  afterEach(() => {
    delete process.env.PARLEY_MAX_ANSWER_CHARS;
  });

  it("shows and stores the first PARLEY_MAX_ANSWER_CHARS characters and a notice, and stops the model", async () => {
    process.env.PARLEY_MAX_ANSWER_CHARS = "20000";
    const huge = "The same sentence over and over. ".repeat(60_000); // ~2 MB
    mock.onMessage("write forever", { content: huge });
    const { ctx, chat } = await teamWithProvider(mock.url);
    const done = storedTurn();
    const res = await runTurn(ctx, { chatId: chat.id, text: "write forever" }, { onStored: done.onStored });
    const body = await res.text();
    const chunks = parseSse(body);
    expect(textOf(chunks)).toBe(huge.slice(0, 20_000));
    expect(body.length).toBeLessThan(200_000); // not the 2 MB the model wrote
    const notices = chunks.filter((c) => c.type === "data-notice").map((c) => (c.data as { code: string }).code);
    expect(notices).toEqual(["AnswerTruncated"]);
    await done.promise;
    const answer = await storedAnswer(chat.id);
    expect(answer.blocks.filter((b) => b.kind === "text").map((b) => b.text)).toEqual([huge.slice(0, 20_000)]);
    expect(answer.blocks.find((b) => b.kind === "data")?.data).toMatchObject({ code: "AnswerTruncated" });
  });
});
