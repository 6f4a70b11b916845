// The tool block state machine: which moves are allowed, and the faces of aborted calls.
import { describe, expect, it } from "vitest";
import type { ParleyPart } from "./message-types";
import { abortOpenCalls, canMove, isFinal, TOOL_STATES } from "./tool-states";

describe("tool states", () => {
  it("a final state never changes; open states only move forward", () => {
    for (const final of ["output-available", "output-error", "output-denied", "aborted"] as const) {
      for (const to of TOOL_STATES) expect(canMove(final, to), `${final} -> ${to}`).toBe(false);
    }
    expect(canMove("input-streaming", "input-available")).toBe(true);
    expect(canMove("approval-requested", "aborted")).toBe(true);
    expect(canMove("approval-responded", "approval-requested")).toBe(false);
    expect(canMove("input-available", "input-streaming")).toBe(false);
    // Preliminary output is still running: more output, an error or an abort may follow.
    expect(canMove("output-available", "output-available", true)).toBe(true);
    expect(canMove("output-available", "aborted", true)).toBe(true);
  });

  it("aborting leaves no open call and gives each the face of why and when", () => {
    const parts = [
      { type: "tool-a", toolCallId: "1", state: "input-streaming", input: undefined },
      { type: "tool-b", toolCallId: "2", state: "input-available", input: { x: 1 } },
      { type: "tool-c", toolCallId: "3", state: "approval-requested", input: {}, approval: { id: "ap" } },
      { type: "dynamic-tool", toolName: "d", toolCallId: "4", state: "approval-responded", input: {}, approval: { id: "ap2", approved: true } },
      { type: "tool-e", toolCallId: "5", state: "output-available", input: {}, output: { ok: true } },
      { type: "text", text: "hi", state: "done" },
    ] as unknown as ParleyPart[];
    const failed = abortOpenCalls(parts, "failed") as unknown as { state?: string; errorText?: string }[];
    expect(failed.map((p) => p.state)).toEqual(["output-error", "output-error", "output-error", "output-error", "output-available", "done"]);
    expect(failed.map((p) => p.errorText).slice(0, 4)).toEqual([
      "[ERROR:Aborted] Not run: the answer failed.",
      "[ERROR:Aborted] Cut off: the answer failed while this call ran.",
      "[ERROR:Aborted] Not run: the answer failed.",
      "[ERROR:Aborted] Cut off: the answer failed while this call ran.",
    ]);
    expect(failed.every((p) => !(p as { type?: string }).type?.startsWith("tool") || isFinal(p as never))).toBe(true);
    // A normal finish keeps calls that wait for a person.
    const kept = abortOpenCalls(parts, "step-limit", (p) => p.state === "approval-requested") as unknown as { state: string }[];
    expect(kept[2].state).toBe("approval-requested");
    expect((kept[0] as { errorText?: string }).errorText).toBe("[ERROR:Aborted] Not run: the answer reached its step limit.");
  });
});
