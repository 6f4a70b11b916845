// The stored branch put in place of the shown one: after a turn the stored ids and versions replace
// the live messages from the page's first message on, unchanged messages keep their objects (no
// re-render), and a page that starts before what is shown (or shares nothing with it) replaces all.
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { withNewestPage } from "./branch-page";
import { questionRename } from "./use-stored-question-id";

const msg = (id: string, text: string, role: "user" | "assistant" = "user"): ParleyUIMessage => ({ id, role, parts: [{ type: "text", text }] });

describe("withNewestPage", () => {
  it("replaces the shown messages from the page's first on, keeping unchanged objects and older pages", () => {
    const older = msg("o1", "older");
    const kept = msg("q1", "question");
    const shown = [older, kept, msg("local-id", "new question"), msg("a2", "answer", "assistant")];
    const page = {
      messages: [msg("q1", "question"), msg("q2", "new question"), { ...msg("a2", "answer", "assistant"), metadata: { versions: { index: 2, count: 2 } } }],
      hasMore: true,
      firstSeq: 7,
    };
    const merged = withNewestPage(shown, page);
    expect(merged.messages.map((m) => m.id)).toEqual(["o1", "q1", "q2", "a2"]);
    expect(merged.messages[0]).toBe(older);
    expect(merged.messages[1]).toBe(kept);
    expect(merged.messages[3].metadata?.versions).toEqual({ index: 2, count: 2 });
    expect(merged.older).toBeUndefined();
  });

  it("a page that shares nothing with what is shown replaces it, with the page's paging", () => {
    const merged = withNewestPage([msg("local", "edited first question")], { messages: [msg("q9", "edited first question")], hasMore: false });
    expect(merged.messages.map((m) => m.id)).toEqual(["q9"]);
    expect(merged.older).toEqual({ hasMore: false, firstSeq: undefined });
  });
});

describe("the live question takes its stored id when its answer starts", () => {
  it("renames the question before the answer that names it, so the refresh after the turn keeps its object (and an open editor)", () => {
    const older = msg("q1", "question");
    const live = msg("local-id", "new question");
    const answer: ParleyUIMessage = { ...msg("a2", "answer", "assistant"), metadata: { status: "streaming", questionId: "q2" } };
    expect(questionRename([older, live, answer])).toEqual({ from: "local-id", to: "q2" });
    const renamed = [older, { ...live, id: "q2" }, answer];
    expect(questionRename(renamed)).toBeUndefined();
    // After the turn the stored page keeps the renamed question's object: nothing of it re-renders.
    const merged = withNewestPage(renamed, {
      messages: [msg("q1", "question"), msg("q2", "new question"), { ...answer, metadata: { status: "done" } }],
      hasMore: false,
    });
    expect(merged.messages[1]).toBe(renamed[1]);
    // An answer that follows no new question (Continue, decisions, regenerate) renames nothing.
    expect(questionRename([older, msg("a1", "answer", "assistant")])).toBeUndefined();
  });
});
