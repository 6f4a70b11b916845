// One structured server log line per step of a turn: chat, message, step, tool calls by name and id,
// which were invalid or repaired, finish reason and duration — so a tool failure is never invisible
// to the operator.
import type { StepResult, ToolSet } from "ai";
import type { RepairEvent } from "../tools/repair";

export type StepLogInput = { chatId: string; messageId: string; step: number; durationMs: number; result: StepResult<ToolSet>; repairs: RepairEvent[] };

function stepLogLine(s: StepLogInput): Record<string, unknown> {
  const calls = s.result.toolCalls.map((c) => ({ id: c.toolCallId, name: c.toolName, ...(c.invalid ? { invalid: true } : {}) }));
  const errors = s.result.content.filter((p) => p.type === "tool-error").map((p) => ({ id: p.toolCallId, name: p.toolName }));
  return {
    event: "turn.step",
    chat: s.chatId,
    message: s.messageId,
    step: s.step,
    tools: calls,
    ...(errors.length ? { toolErrors: errors } : {}),
    ...(s.repairs.length ? { repairs: s.repairs } : {}),
    finishReason: s.result.finishReason,
    durationMs: s.durationMs,
  };
}

export function logStep(s: StepLogInput): void {
  console.log(JSON.stringify(stepLogLine(s)));
}
