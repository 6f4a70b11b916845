// The wire format of a failed tool call, `[ERROR:<code>] message`, on the server and in the browser:
// locale-independent codes the model can act on whatever the language of the message, and that the
// tool block shows beside the message. lib/tools/error-codes.ts throws them (ToolError).
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
