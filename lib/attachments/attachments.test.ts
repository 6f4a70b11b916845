// Attachments (store.ts, chunks.ts, sniff.ts, extract.ts, model-files.ts) against a scripted upstream: types come
// from the bytes; limits per file and per message; only people who may see the chat fetch a file; a
// vision model receives the image itself, a model without vision the PDF's text with a visible notice;
// the files show in the stored question after a reload.
import type { LLMock } from "@copilotkit/aimock";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { loadMessagePage } from "../chat/history";
import { shareChat } from "../sharing/shares";
import { copyChat } from "../sharing/copy";
import { makeUser } from "@/test/support/test-app";
import { readChunks, teamWithProvider, textOf } from "@/test/support/test-turns";
import { tinyPdf } from "@/test/support/tiny-pdf";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { sweepRetention } from "../retention/retention";
import { claimAttachments, deleteUnsentAttachment, questionFiles, readAttachment, uploadAttachment } from "./store";
import { sniff } from "./sniff";
import { CHUNK_BYTES } from "./chunks";
import { MAX_EXTRACTED_CHARS } from "./extract";

let mock: LLMock;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const sentBody = () => JSON.stringify(mock.getLastRequest()?.body ?? {});

async function memberOf(teamId: string, name: string): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser(name);
  await prisma.membership.create({ data: { teamId, userId: user.id } });
  const team = { id: teamId, name: "T", role: "member" as const };
  return { user: { id: user.id, name: user.name, email: user.email }, team, teams: [team] };
}

describe("sniffing", () => {
  it("takes the type from the bytes, whatever the name says, and refuses what is not an image, PDF or text", () => {
    expect(sniff(PNG, "notes.txt")).toEqual({ mediaType: "image/png", kind: "image" });
    expect(sniff(tinyPdf("x"), "photo.png")).toEqual({ mediaType: "application/pdf", kind: "pdf" });
    expect(sniff(Buffer.from("# Title\n"), "readme.md")).toEqual({ mediaType: "text/markdown", kind: "text" });
    expect(sniff(Buffer.from("const a = 1;\n"), "a.ts")).toEqual({ mediaType: "text/plain", kind: "text" });
    expect(sniff(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]), "setup.png")).toBeUndefined(); // a Windows executable
    expect(sniff(Buffer.from([0xc3, 0x28, 0x41]), "bad.txt")).toBeUndefined(); // not UTF-8
    expect(sniff(Buffer.from("a\u0000b"), "nul.txt")).toBeUndefined();
  });
});

describe.each(DATABASES)("attachments on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  it("refuses unknown kinds (415) and files over the limit (413), storing nothing", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const prisma = await db();
    await expect(uploadAttachment(ctx, { name: "x.exe", body: Buffer.from([0x4d, 0x5a, 0x90, 0x00]) })).rejects.toMatchObject({ status: 415 });
    process.env.PARLEY_MAX_ATTACHMENT_BYTES = "2048";
    process.env.PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES = "3000";
    try {
      await expect(uploadAttachment(ctx, { name: "big.txt", body: Buffer.alloc(2049, 97) })).rejects.toMatchObject({ status: 413 });
      const a = await uploadAttachment(ctx, { name: "a.txt", body: Buffer.alloc(2000, 97) });
      const b = await uploadAttachment(ctx, { name: "b.txt", body: Buffer.alloc(2000, 98) });
      await expect(questionFiles(ctx, [a.id, b.id])).rejects.toMatchObject({ status: 413 });
      expect(await questionFiles(ctx, [a.id])).toHaveLength(1);
    } finally {
      delete process.env.PARLEY_MAX_ATTACHMENT_BYTES;
      delete process.env.PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES;
    }
    expect(await prisma.attachment.count({ where: { userId: ctx.user.id, name: { in: ["x.exe", "big.txt"] } } })).toBe(0);
  });

  it("caps a member's unsent uploads by count and bytes (a 4xx saying so), frees them when removed or sent, and purges them after an hour", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url);
    const prisma = await db();
    const other = await memberOf(ctx.team.id, "Other");
    process.env.PARLEY_MAX_UNSENT_ATTACHMENTS = "3";
    process.env.PARLEY_MAX_UNSENT_ATTACHMENT_BYTES = "5000";
    try {
      const text = (n: number, c = 97) => ({ name: `f${n}.txt`, body: Buffer.alloc(n, c) });
      const [a, b] = [await uploadAttachment(ctx, text(2000)), await uploadAttachment(ctx, text(2000))];
      // Bytes: 4,000 are waiting; 1,001 more would pass the 5,000.
      const bytes = await uploadAttachment(ctx, text(1001)).catch((e: unknown) => e);
      expect(bytes).toMatchObject({ status: 413, message: expect.stringMatching(/waiting to be sent.*5 KB/) });
      const c = await uploadAttachment(ctx, text(1000));
      // Count: three are waiting.
      const count = await uploadAttachment(ctx, text(10)).catch((e: unknown) => e);
      expect(count).toMatchObject({ status: 409, message: expect.stringMatching(/3 files are waiting to be sent/) });
      // Another member's allowance is their own.
      await uploadAttachment(other, text(10));
      // Removing one (only the uploader can, only while unsent) frees its place.
      await expect(deleteUnsentAttachment(other, a.id)).rejects.toMatchObject({ status: 404 });
      await deleteUnsentAttachment(ctx, a.id);
      expect(await prisma.attachment.count({ where: { id: a.id } })).toBe(0);
      const d = await uploadAttachment(ctx, text(10));
      // Sending frees them too; a sent one cannot be deleted this way.
      await prisma.message.create({ data: { id: `m-${chat.id}`, chatId: chat.id, role: "user" } });
      await prisma.$transaction((tx) =>
        claimAttachments(
          tx,
          ctx,
          chat.id,
          `m-${chat.id}`,
          [b, c, d].map((x) => ({ type: "file" as const, mediaType: x.mediaType, url: x.url, filename: x.name })),
        ),
      );
      await expect(deleteUnsentAttachment(ctx, b.id)).rejects.toMatchObject({ status: 404 });
      const e = await uploadAttachment(ctx, text(10));
      // Unsent for over an hour: purged by the sweep, and not counted meanwhile.
      await prisma.attachment.update({ where: { id: e.id }, data: { createdAt: new Date(Date.now() - 61 * 60_000) } });
      await uploadAttachment(ctx, text(10));
      await uploadAttachment(ctx, text(10));
      await uploadAttachment(ctx, text(10));
      expect((await sweepRetention(prisma)).uploads).toBeGreaterThanOrEqual(1);
      expect(await prisma.attachment.count({ where: { id: e.id } })).toBe(0);
      expect(await prisma.attachment.count({ where: { id: b.id } })).toBe(1);
    } finally {
      delete process.env.PARLEY_MAX_UNSENT_ATTACHMENTS;
      delete process.env.PARLEY_MAX_UNSENT_ATTACHMENT_BYTES;
    }
  });

  it("a large upload is stored and served a chunk at a time; a file that stops being text, or an upload that breaks off, leaves nothing behind", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const prisma = await db();
    // ~700 KB of text arriving in uneven pieces, as a network hands them over.
    const text = Buffer.from("All work and no play makes Jack a dull boy.\n".repeat(16_000));
    const pieces = (bytes: Buffer, at: number[]) =>
      (async function* () {
        let from = 0;
        for (const to of [...at, bytes.length]) yield bytes.subarray(from, (from = to));
      })();
    const stored = await uploadAttachment(ctx, { name: "jack.txt", body: pieces(text, [1, 70_000, 333_333, 600_000]) });
    expect(stored).toMatchObject({ mediaType: "text/plain", size: text.length });
    const rows = await prisma.attachmentChunk.findMany({ where: { attachmentId: stored.id }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => r.data.byteLength)).toEqual([CHUNK_BYTES, CHUNK_BYTES, text.length - 2 * CHUNK_BYTES]);
    const served: number[] = [];
    const reader = (await readAttachment(ctx, stored.id)).body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) served.push(next.value.byteLength);
    expect(served).toEqual(rows.map((r) => r.data.byteLength));
    expect(Buffer.concat(rows.map((r) => r.data))).toEqual(text);
    // Its text is kept for models that read text (and for search), from the pieces as they came, up to the bound.
    const kept = (await prisma.attachment.findUniqueOrThrow({ where: { id: stored.id } })).text;
    expect(kept).toBe(`${text.toString().slice(0, MAX_EXTRACTED_CHARS)}\n[… cut: the document is longer]`);

    // A NUL byte in the third chunk: not a text file after all (415), and the first chunks are gone too.
    const binary = Buffer.from(text);
    binary[2 * CHUNK_BYTES + 10] = 0;
    await expect(uploadAttachment(ctx, { name: "sneaky.txt", body: pieces(binary, [300_000]) })).rejects.toMatchObject({ status: 415 });
    // The connection drops after two chunks: the error is the upload's, and nothing is kept.
    const broken = (async function* () {
      yield text.subarray(0, 600_000);
      throw new Error("connection reset");
    })();
    await expect(uploadAttachment(ctx, { name: "cut.txt", body: broken })).rejects.toThrow("connection reset");
    expect(await prisma.attachment.count({ where: { userId: ctx.user.id } })).toBe(1);
    expect(await prisma.attachmentChunk.count({ where: { attachment: { userId: ctx.user.id } } })).toBe(3);
  });

  it("uploads picked together never pass the cap: the first 20 are taken, the 21st refused", async () => {
    const { ctx } = await teamWithProvider(mock.url);
    const res = await Promise.allSettled(Array.from({ length: 21 }, (_, i) => uploadAttachment(ctx, { name: `n${i}.md`, body: Buffer.from(`# Note ${i}\n`) })));
    expect(res.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    const refused = res.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(refused).toEqual([expect.objectContaining({ status: 409, message: expect.stringContaining("20 files are waiting to be sent") })]);
  });

  it("a vision model receives the image itself; the question shows its files after a reload; only those who see the chat fetch them", async () => {
    const { ctx, chat, model } = await teamWithProvider(mock.url);
    const prisma = await db();
    await prisma.model.update({ where: { id: model.id }, data: { vision: true } });
    const reader = await memberOf(ctx.team.id, "Reader");
    const bystander = await memberOf(ctx.team.id, "Bystander");
    const stranger = (await teamWithProvider(mock.url)).ctx;
    mock.onMessage("attach: what is in the picture", { content: "A single pixel." });

    const image = await uploadAttachment(ctx, { name: "pixel.png", body: PNG });
    expect(image).toMatchObject({ mediaType: "image/png", size: PNG.length, url: `/api/attachments/${image.id}` });
    // Before it is sent, only the uploader can fetch it or send it.
    expect(Buffer.from(await new Response((await readAttachment(ctx, image.id)).body).arrayBuffer())).toEqual(PNG);
    await expect(readAttachment(reader, image.id)).rejects.toMatchObject({ status: 404 });
    await expect(questionFiles(reader, [image.id])).rejects.toMatchObject({ status: 404 });

    const done = storedTurn();
    const chunks = await readChunks(
      await runTurn(ctx, { chatId: chat.id, text: "attach: what is in the picture", attachments: [image.id] }, { onStored: done.onStored }),
    );
    await done.promise;
    expect(textOf(chunks)).toBe("A single pixel.");
    expect(sentBody()).toContain(`data:image/png;base64,${PNG.toString("base64")}`);

    const page = await loadMessagePage(chat.id);
    expect(page.messages[0].parts).toEqual([
      { type: "text", text: "attach: what is in the picture", state: "done" },
      { type: "file", mediaType: "image/png", url: image.url, filename: "pixel.png" },
    ]);
    // Sent: the owner and those the chat is shared with fetch it; nobody else, in the team or outside.
    await expect(readAttachment(reader, image.id)).rejects.toMatchObject({ status: 404 });
    await shareChat(ctx, chat.id, { userId: reader.user.id, canContinue: true });
    expect((await readAttachment(reader, image.id)).mediaType).toBe("image/png");
    for (const other of [bystander, stranger]) await expect(readAttachment(other, image.id)).rejects.toMatchObject({ status: 404 });
    // It went with one message: it cannot be sent again.
    await expect(questionFiles(ctx, [image.id])).rejects.toMatchObject({ status: 404 });
    // The reader's copy of the chat has its own copy of the file: the same bytes, theirs to fetch, kept when the original goes.
    const copy = await copyChat(reader, chat.id);
    const copied = await prisma.attachment.findFirstOrThrow({ where: { chatId: copy.id } });
    await prisma.chat.delete({ where: { id: chat.id } });
    expect(Buffer.from(await new Response((await readAttachment(reader, copied.id)).body).arrayBuffer())).toEqual(PNG);
  });

  it("a model that cannot read PDFs gets the document's extracted text, and the answer says so", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url);
    mock.onMessage("attach: summarise the report", { content: "Revenue grew." });
    const pdf = await uploadAttachment(ctx, { name: "report.pdf", body: tinyPdf("Quarterly revenue grew by 12 percent") });
    expect(pdf.mediaType).toBe("application/pdf");
    const done = storedTurn();
    const chunks = await readChunks(
      await runTurn(ctx, { chatId: chat.id, text: "attach: summarise the report", attachments: [pdf.id] }, { onStored: done.onStored }),
    );
    await done.promise;
    expect(sentBody()).toContain("Quarterly revenue grew by 12 percent");
    expect(sentBody()).not.toContain("data:application/pdf");
    const notice = chunks.find((c) => c.type === "data-notice") as { data?: { code: string; message: string } } | undefined;
    expect(notice?.data).toMatchObject({ code: "AttachmentAsText" });
    expect(notice?.data?.message).toContain("report.pdf");
  });
});
