// A page rendered mid-turn resumes a stream that replays the answer from its start: the rendered answer
// stays in place until the replay has caught up, so the answer never blanks and regrows.
import { describe, expect, it } from "vitest";
import type { ParleyUIMessage } from "@/lib/messages/message-types";
import { withFloor } from "./use-resume-floor";

const question: ParleyUIMessage = { id: "q", role: "user", parts: [{ type: "text", text: "Count slowly" }] };

function answer(text: string, tools = 0): ParleyUIMessage {
  const calls = Array.from({ length: tools }, (_, i) => ({
    type: "tool-echo" as const,
    toolCallId: `call-${i}`,
    state: "output-available" as const,
    input: {},
    output: "ok",
  }));
  return { id: "a", role: "assistant", parts: [...calls, { type: "text", text }] } as ParleyUIMessage;
}

describe("withFloor", () => {
  const rendered = answer("One. Two. Three.");

  it("shows the rendered answer while the replay is behind it, then the live one", () => {
    const replay = ["", "One.", "One. Two.", "One. Two. Three.", "One. Two. Three. Four."];
    const seen = replay.map((text) => withFloor([question, answer(text)], rendered)[1].parts.at(-1));
    expect(seen.map((p) => (p as { text: string }).text)).toEqual([
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three. Four.",
    ]);
  });

  it("counts tool blocks too: a replay with the text but not yet the call shows the rendered answer", () => {
    const withCall = answer("Done.", 1);
    expect(withFloor([question, answer("Done.")], withCall)[1]).toBe(withCall);
    const live = answer("Done.", 1);
    expect(withFloor([question, live], withCall)[1]).toBe(live);
  });

  it("leaves other messages, and a list without the answer, as they are", () => {
    const list = [question, { ...answer(""), id: "other" }];
    expect(withFloor(list, rendered)).toBe(list);
    expect(withFloor(list, undefined)).toBe(list);
  });
});
