// Locale-independent codes for failed tool calls. The model sees `[ERROR:<code>] message` (it can act
// on the code whatever the language of the message); the tool block shows the code and the message.
const TOOL_ERROR_CODES = [
  "Timeout",
  "InvalidArgs",
  "NoSuchTool",
  "ServerUnavailable",
  "ToolFailed",
  // The result's structured content does not match the tool's output schema.
  "InvalidOutput",
  "Denied",
  "Aborted",
  "ConnectRequired",
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

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

export function formatToolError(code: ToolErrorCode, message: string): string {
  return `[ERROR:${code}] ${message}`;
}

const PATTERN = /^\[ERROR:([A-Za-z]+)\] ?([\s\S]*)$/;

/** The code and message of an error text made by formatToolError; undefined for other texts. */
export function parseToolError(text: string | undefined | null): { code: ToolErrorCode; message: string } | undefined {
  const m = text ? PATTERN.exec(text) : null;
  if (!m || !(TOOL_ERROR_CODES as readonly string[]).includes(m[1])) return undefined;
  return { code: m[1] as ToolErrorCode, message: m[2] };
}

/** Whether an error (an Error, or the string the AI SDK passes for tool errors) is a coded tool error. */
export function toolErrorText(err: unknown): string | undefined {
  const text = typeof err === "string" ? err : err instanceof Error ? err.message : undefined;
  return parseToolError(text) ? text : undefined;
}
