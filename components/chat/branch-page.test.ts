// The stored branch put in place of the shown one: after a turn the stored ids and versions replace
// the live messages from the page's first message on, unchanged messages keep their objects (no
// re-render), and a page that starts before what is shown (or shares nothing with it) replaces all.
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "@/lib/chat/message-types";
import { withNewestPage } from "./branch-page";

const msg = (id: string, text: string, role: "user" | "assistant" = "user"): ParleyUIMessage => ({ id, role, parts: [{ type: "text", text }] });

describe("withNewestPage", () => {
  it("replaces the shown messages from the page's first on, keeping unchanged objects and older pages", () => {
    const older = msg("o1", "older");
    const kept = msg("q1", "question");
    const shown = [older, kept, msg("local-id", "new question"), msg("a2", "answer", "assistant")];
    const page = { messages: [msg("q1", "question"), msg("q2", "new question"), { ...msg("a2", "answer", "assistant"), metadata: { versions: { index: 2, count: 2 } } }], hasMore: true, firstSeq: 7 };
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
