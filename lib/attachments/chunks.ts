// An attachment's bytes, a chunk at a time (AttachmentChunk rows of CHUNK_BYTES): what arrives is cut
// into chunks as it comes; a download is a stream that reads the next chunk only when the client takes
// it. Only a model's request (model-files.ts) and a PDF's text need a whole file, and read it whole.
import { db } from "../db/client";

/** Bytes per stored chunk. */
export const CHUNK_BYTES = 256 * 1024;

/** The bytes regrouped into pieces of exactly `size` (the last one shorter). */
export async function* rechunk(body: Uint8Array | AsyncIterable<Uint8Array>, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const source = body instanceof Uint8Array ? [body] : body;
  let parts: Buffer[] = [];
  let held = 0;
  for await (const piece of source) {
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (held + rest.byteLength >= size) {
      const take = size - held;
      parts.push(rest.subarray(0, take));
      yield Buffer.concat(parts, size);
      rest = rest.subarray(take);
      parts = [];
      held = 0;
    }
    if (rest.byteLength) {
      parts.push(Buffer.from(rest)); // a copy: the source may reuse its buffer
      held += rest.byteLength;
    }
  }
  if (held) yield Buffer.concat(parts, held);
}

/** Stores the next chunk of an attachment. */
export async function writeChunk(attachmentId: string, seq: number, data: Buffer): Promise<void> {
  const prisma = await db();
  await prisma.attachmentChunk.create({ data: { attachmentId, seq, data: data as Uint8Array<ArrayBuffer> } });
}

/** The attachment's bytes as a stream that holds one chunk at a time. */
export function chunkStream(attachmentId: string): ReadableStream<Uint8Array> {
  let seq = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const prisma = await db();
        const row = await prisma.attachmentChunk.findUnique({ where: { attachmentId_seq: { attachmentId, seq } }, select: { data: true } });
        if (!row) return controller.close();
        seq++;
        controller.enqueue(new Uint8Array(row.data));
      },
    },
    { highWaterMark: 0 },
  );
}

/** A whole attachment's bytes in one query (for a model's request or a PDF's text; bounded by the per-file limit). */
export async function attachmentBytes(attachmentId: string): Promise<Buffer> {
  const prisma = await db();
  const rows = await prisma.attachmentChunk.findMany({ where: { attachmentId }, orderBy: { seq: "asc" }, select: { data: true } });
  return Buffer.concat(rows.map((r) => r.data));
}
