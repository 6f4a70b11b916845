// The states of a tool block, owned by the server, and the moves between them:
//
//   input-streaming -> input-available -> [approval-requested -> approval-responded] -> running -> done | error | denied
//   and from any state that is not final: aborted (stopped, interrupted, superseded, step limit, failed turn)
//
// "running" is `input-available` (or an approved call, or one with preliminary output) while its
// `execute` runs; "done" is `output-available`, "error" `output-error`, "denied" `output-denied`. An
// aborted call is stored with the status `aborted` and reaches the browser and the model as an
// `output-error` part whose text is `[ERROR:Aborted] <why>` (the face the card shows), so a live turn and
// a reloaded one look the same and the model reads that the call did not finish. The block writer
// refuses any move this table does not allow (a final block never changes again).
import { formatToolError, parseToolError } from "../format/tool-error";

export const TOOL_STATES = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
  "aborted",
] as const;
export type ToolState = (typeof TOOL_STATES)[number];

/** States a call never leaves. (`output-available` with preliminary output is still running.) */
export const FINAL_STATES: readonly ToolState[] = ["output-available", "output-error", "output-denied", "aborted"];

/** Where each state may go next (later states of the same call; skipping is allowed, going back is not). */
const NEXT: Record<ToolState, readonly ToolState[]> = {
  "input-streaming": ["input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied", "aborted"],
  "input-available": ["approval-requested", "approval-responded", "output-available", "output-error", "output-denied", "aborted"],
  "approval-requested": ["approval-responded", "output-available", "output-error", "output-denied", "aborted"],
  "approval-responded": ["output-available", "output-error", "output-denied", "aborted"],
  "output-available": [],
  "output-error": [],
  "output-denied": [],
  aborted: [],
};

/** Whether a block may move from `from` to `to`; staying (with new content) is allowed unless final. */
export function canMove(from: ToolState, to: ToolState, fromPreliminary = false): boolean {
  if (from === to) return !FINAL_STATES.includes(from) || (from === "output-available" && fromPreliminary);
  if (from === "output-available" && fromPreliminary) return to === "output-error" || to === "aborted";
  return NEXT[from].includes(to);
}

/** The reason stored on a call that was waiting when a new message was sent (it is denied). */
export const SUPERSEDED = "superseded by a new message";

/** Why a call was aborted: each is a face the card shows after a reload. */
export type AbortReason = "stopped" | "interrupted" | "superseded" | "step-limit" | "failed";

const FACES: Record<AbortReason, { before: string; during: string }> = {
  stopped: { before: "Stopped before it ran.", during: "Stopped while it ran; it may not have finished." },
  interrupted: {
    before: "Interrupted: the server stopped before this call ran.",
    during: "Interrupted: the server stopped while this call ran; it may not have finished.",
  },
  superseded: { before: "Not run: a new message was sent.", during: "Superseded by a new message." },
  "step-limit": { before: "Not run: the answer reached its step limit.", during: "Cut off: the answer reached its step limit." },
  failed: { before: "Not run: the answer failed.", during: "Cut off: the answer failed while this call ran." },
};

type ToolLike = { type?: string; state?: string; preliminary?: boolean; errorText?: string; approval?: { approved?: boolean } };

export function isToolPart(part: { type?: string }): boolean {
  if (!part.type) return false;
  return part.type === "dynamic-tool" || part.type.startsWith("tool-");
}

/** The stored state of a tool part (an aborted call travels as an `output-error` with the code Aborted). */
export function toolStateOf(part: ToolLike): ToolState {
  if (part.state === "output-error" && parseToolError(part.errorText)?.code === "Aborted") return "aborted";
  return part.state as ToolState;
}

/** Whether a call is over (nothing will change it any more). */
export function isFinal(part: ToolLike): boolean {
  const state = toolStateOf(part);
  return FINAL_STATES.includes(state) && !(state === "output-available" && part.preliminary === true);
}

/** Whether a call had started to run (its `execute` may have begun) rather than still waiting. */
function started(part: ToolLike): boolean {
  if (part.state === "input-available" || part.state === "output-available") return true;
  return part.state === "approval-responded" && part.approval?.approved === true;
}

/** The text of an aborted call: the code Aborted and the face for why and when. */
export function abortedText(reason: AbortReason, runStarted: boolean): string {
  return formatToolError("Aborted", runStarted ? FACES[reason].during : FACES[reason].before);
}

/** The `tool-output-error` chunk that ends an open call for `reason` (turn-stream.ts sends it). */
export function abortChunk(part: ToolLike & { toolCallId: string }, reason: AbortReason) {
  return { type: "tool-output-error" as const, toolCallId: part.toolCallId, errorText: abortedText(reason, started(part)) };
}

/** The parts of a message with every open call (except `keep`, e.g. calls left waiting for a person) aborted. */
export function abortOpenCalls<P extends { type: string }>(parts: P[], reason: AbortReason, keep: (p: ToolLike) => boolean = () => false): P[] {
  return parts.map((p) => {
    const t = p as unknown as ToolLike & { toolCallId: string; input?: unknown; output?: unknown; preliminary?: boolean };
    if (!isToolPart(p) || isFinal(t) || keep(t)) return p;
    const { output: _output, preliminary: _preliminary, ...rest } = t;
    void _output;
    void _preliminary;
    return { ...rest, state: "output-error", input: t.input ?? {}, errorText: abortChunk(t, reason).errorText } as unknown as P;
  });
}
