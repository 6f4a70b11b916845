// Failed tool calls as errors: a ToolError carries its code, and its message is the coded text the
// model and the stored block receive (`[ERROR:<code>] message`, lib/format/tool-error.ts).
import { formatToolError, parseToolError, type ToolErrorCode } from "../format/tool-error";

/** A failed tool call. Its message is what the model and the stored block receive. */
export class ToolError extends Error {
  constructor(
    readonly code: ToolErrorCode,
    readonly detail: string,
  ) {
    super(formatToolError(code, detail));
    this.name = "ToolError";
  }
}

/** Whether an error (an Error, or the string the AI SDK passes for tool errors) is a coded tool error. */
export function toolErrorText(err: unknown): string | undefined {
  const text = typeof err === "string" ? err : err instanceof Error ? err.message : undefined;
  return parseToolError(text) ? text : undefined;
}
