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

  it("shows the rendered answer while the replay is behind it, then the live one, and retires then", () => {
    const replay = ["", "One.", "One. Two.", "One. Two. Three.", "One. Two. Three. Four."];
    const seen = replay.map((text) => withFloor([question, answer(text)], rendered));
    expect(seen.map(({ shown }) => (shown[1].parts.at(-1) as { text: string }).text)).toEqual([
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three.",
      "One. Two. Three. Four.",
    ]);
    expect(seen.map(({ retired }) => retired)).toEqual([false, false, false, true, true]);
  });

  it("counts tool blocks too: a replay with the text but not yet the call shows the rendered answer", () => {
    const withCall = answer("Done.", 1);
    expect(withFloor([question, answer("Done.")], withCall).shown[1]).toBe(withCall);
    const live = answer("Done.", 1);
    expect(withFloor([question, live], withCall)).toEqual({ shown: [question, live], retired: true });
  });

  it("keeps the rendered answer before the resume starts, and retires once the answer has left the list", () => {
    const page = [question, rendered];
    expect(withFloor(page, rendered)).toEqual({ shown: page, retired: false });
    const switched = [question, { ...answer(""), id: "other" }];
    const after = withFloor(switched, rendered);
    expect(after.shown).toBe(switched);
    expect(after.retired).toBe(true);
  });
});
