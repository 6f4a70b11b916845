// Request body limits: a JSON body is read with a byte cap and parsed with its zod schema, so an
// oversized, mistyped (not JSON: 415) or malformed request is refused (413 / 400) before anything is
// written. No string in it may hold a NUL byte (PostgreSQL refuses them) and nesting is bounded.
import type { z } from "zod";
import { AppError, Invalid } from "../errors";
import { hasNulOrTooDeep } from "../validation";

const DEFAULT_JSON_LIMIT = 64 * 1024;

export async function readJson<T extends z.ZodType>(req: Request, schema: T, maxBytes = DEFAULT_JSON_LIMIT): Promise<z.infer<T>> {
  const type = req.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw new AppError("UnsupportedMediaType", 415, "Send the request body as JSON (Content-Type: application/json).");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new AppError("TooLarge", 413, `The request body is larger than ${maxBytes} bytes.`);
  const text = await readCapped(req, maxBytes);
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    throw Invalid("The request body is not valid JSON.");
  }
  if (hasNulOrTooDeep(data)) throw Invalid("The request body contains a NUL byte or is nested too deeply.");
  return schema.parse(data);
}

async function readCapped(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AppError("TooLarge", 413, `The request body is larger than ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
