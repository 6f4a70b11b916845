// Reads an upload's multipart body as it arrives (busboy): the file's bytes are handed on piece by
// piece, never held whole, and cut one byte past the file's limit so the store can refuse it (413).
// A body declared larger than the limit plus room for the envelope is refused before it is read.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import Busboy from "@fastify/busboy";
import { Invalid } from "../errors";

const ENVELOPE = 64 * 1024;

export type UploadedFile = { name: string; body: AsyncIterable<Uint8Array> };

/** The field "file" of a multipart body; "too-large" when its length says so; undefined when there is none. */
export async function readMultipartFile(req: Request, maxFileBytes: number): Promise<UploadedFile | "too-large" | undefined> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type) || !req.body) return undefined;
  if (Number(req.headers.get("content-length") ?? "0") > maxFileBytes + ENVELOPE) return "too-large";
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({ headers: { "content-type": type }, limits: { files: 1, fields: 10, parts: 20, fileSize: maxFileBytes + 1 } });
  } catch {
    return undefined; // no usable boundary
  }
  const source = Readable.fromWeb(req.body as NodeReadableStream<Uint8Array>);
  let file: Readable | undefined;
  let settle!: (file: UploadedFile | undefined) => void;
  const found = new Promise<UploadedFile | undefined>((resolve) => (settle = resolve));
  parser.on("file", (field, stream, name) => {
    if (field !== "file" || file) return void stream.resume();
    file = stream;
    settle({ name, body: untilDone(stream, source) });
  });
  parser.on("finish", () => settle(undefined));
  // A broken or cut-off body: no file (400), or the file's bytes end with an error (the store keeps nothing).
  pipeline(source, parser).catch(() => {
    settle(undefined);
    file?.destroy(new Error("The body ended inside the file."));
  });
  return found;
}

/** The file's bytes (a body that ends inside them: 400); when the reader stops early (a refusal), the rest of the body is not read. */
async function* untilDone(stream: Readable, source: Readable): AsyncGenerator<Uint8Array> {
  try {
    for await (const piece of stream) yield piece as Uint8Array;
  } catch {
    throw Invalid("The upload broke off before the file ended.");
  } finally {
    source.destroy();
  }
}
