// Uploads a chunk at a time: the regrouping into stored chunks, the multipart reader that hands the
// file on as it arrives (and what it does with a body that is cut off, too large or not a file), and
// the migration that moved bytes stored whole into chunks.
import { PGlite } from "@electric-sql/pglite";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { migratePGlite, readMigrations } from "../db/migrator";
import { pgliteExtensions } from "../db/pglite-store";
import { CHUNK_BYTES, rechunk } from "./chunks";
import { readMultipartFile } from "./upload-body";

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const piece of body) out.push(Buffer.from(piece));
  return out;
}

const upload = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://parley.test/api/attachments", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("rechunk", () => {
  it("regroups pieces of any size into chunks of exactly the size (the last shorter), losing and adding nothing", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 12 }), fc.integer({ min: 1, max: 16 }), async (pieces, size) => {
        const chunks = await collect(
          rechunk(
            (async function* () {
              yield* pieces;
            })(),
            size,
          ),
        );
        const all = Buffer.concat(pieces);
        expect(Buffer.concat(chunks)).toEqual(all);
        expect(chunks.slice(0, -1).every((c) => c.length === size)).toBe(true);
        expect(chunks.length).toBe(Math.ceil(all.length / size));
      }),
    );
  });
});

describe("readMultipartFile", () => {
  it("hands on the file's first bytes while the rest of the body is still arriving", async () => {
    const head = '--b\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n';
    const wire = new TransformStream<Uint8Array, Uint8Array>();
    const writer = wire.writable.getWriter();
    void writer.write(Buffer.concat([Buffer.from(head), Buffer.alloc(64 * 1024, 97)]));
    const file = await readMultipartFile(upload(wire.readable, { "content-type": "multipart/form-data; boundary=b" }), 1024 * 1024);
    if (!file || file === "too-large") throw new Error("no file");
    expect(file.name).toBe("big.txt");
    const pieces = file.body[Symbol.asyncIterator]();
    const first = await pieces.next(); // the body is still open: nothing waits for its end
    expect(first.value?.length).toBeGreaterThan(0);
    void writer.write(Buffer.alloc(512 * 1024, 98));
    void writer.write(Buffer.from("\r\n--b--\r\n"));
    void writer.close();
    const rest: Buffer[] = [Buffer.from(first.value!)];
    for (let next = await pieces.next(); !next.done; next = await pieces.next()) rest.push(Buffer.from(next.value));
    expect(Buffer.concat(rest)).toEqual(Buffer.concat([Buffer.alloc(64 * 1024, 97), Buffer.alloc(512 * 1024, 98)]));
  });

  it("cuts a file one byte past the limit (the store refuses it), and refuses a body declared larger before reading it", async () => {
    const form = new FormData();
    form.set("file", new Blob([Buffer.alloc(5000, 97)]), "a.txt");
    const file = await readMultipartFile(upload(form), 2048);
    if (!file || file === "too-large") throw new Error("no file");
    expect(Buffer.concat(await collect(file.body)).length).toBe(2049);
    expect(await readMultipartFile(upload("x", { "content-type": "multipart/form-data; boundary=b", "content-length": String(10 * 1024 * 1024) }), 2048)).toBe(
      "too-large",
    );
  });

  it("a body cut off inside the file ends the file with a 400; a body with no file field, or no multipart at all, has no file", async () => {
    const head = '--b\r\nContent-Disposition: form-data; name="file"; filename="cut.txt"\r\nContent-Type: text/plain\r\n\r\n';
    const cut = await readMultipartFile(
      upload(Buffer.concat([Buffer.from(head), Buffer.alloc(100_000, 97)]), { "content-type": "multipart/form-data; boundary=b" }),
      1024 * 1024,
    );
    if (!cut || cut === "too-large") throw new Error("no file");
    await expect(collect(cut.body)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/broke off/) });

    const fields = new FormData();
    fields.set("other", "value");
    expect(await readMultipartFile(upload(fields), 2048)).toBeUndefined();
    expect(await readMultipartFile(upload("plain text", { "content-type": "text/plain" }), 2048)).toBeUndefined();
    expect(await readMultipartFile(upload("--", { "content-type": "multipart/form-data" }), 2048)).toBeUndefined(); // no boundary
  });
});

describe("the migration to chunks", () => {
  // Applies every migration to a new PGlite, which takes ~10 s alone and three times that on a busy 2-core machine.
  it("moves every attachment stored whole into chunks of 256 KB, in order, and marks it complete", { timeout: 120_000 }, async () => {
    const all = readMigrations();
    const at = all.findIndex((m) => m.name.endsWith("_attachment_chunks"));
    const pglite = new PGlite({ extensions: await pgliteExtensions() }); // as the app opens it: a later migration creates pgvector
    try {
      await migratePGlite(pglite, all.slice(0, at));
      const bytes = Buffer.from(Array.from({ length: 600_000 }, (_, i) => i % 251));
      await pglite.exec(`SET session_replication_role = replica`); // no team or user rows needed for this one
      await pglite.query(
        `INSERT INTO "Attachment" ("id", "teamId", "userId", "name", "mediaType", "size", "data") VALUES ('a1', 't', 'u', 'f.bin', 'image/png', $1, $2), ('a2', 't', 'u', 'e.txt', 'text/plain', 0, $3)`,
        [bytes.length, bytes, Buffer.alloc(0)],
      );
      await pglite.exec(`SET session_replication_role = DEFAULT`);
      await migratePGlite(pglite, all);
      const rows = await pglite.query<{ attachmentId: string; seq: number; data: Uint8Array }>(
        `SELECT * FROM "AttachmentChunk" ORDER BY "attachmentId", "seq"`,
      );
      const a1 = rows.rows.filter((r) => r.attachmentId === "a1");
      expect(a1.map((r) => [r.seq, r.data.length])).toEqual([
        [0, CHUNK_BYTES],
        [1, CHUNK_BYTES],
        [2, 600_000 - 2 * CHUNK_BYTES],
      ]);
      expect(Buffer.concat(a1.map((r) => r.data))).toEqual(bytes);
      expect(rows.rows.filter((r) => r.attachmentId === "a2").map((r) => r.data.length)).toEqual([0]);
      const complete = await pglite.query<{ complete: boolean }>(`SELECT "complete" FROM "Attachment"`);
      expect(complete.rows.every((r) => r.complete)).toBe(true);
    } finally {
      await pglite.close();
    }
  });
});
