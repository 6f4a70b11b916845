// Reads the wire format of a failed tool call, `[ERROR:<code>] message` (written on the server by
// lib/tools/error-codes), for the tool block. Any other text is the message as it is.
import type { ToolErrorCode } from "@/lib/tools/error-codes";

const PATTERN = /^\[ERROR:([A-Za-z]+)\] ?([\s\S]*)$/;

export function codedError(text: string | undefined): { code?: ToolErrorCode; message: string } {
  const m = text ? PATTERN.exec(text) : null;
  return m ? { code: m[1] as ToolErrorCode, message: m[2] } : { message: text ?? "The tool failed." };
}
