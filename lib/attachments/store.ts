// Attachments: uploaded by a member (POST /api/attachments) before the message that carries them is
// sent, stored a chunk at a time as they arrive (chunks.ts); claimed by that message when it is
// stored (its file blocks point at /api/attachments/<id>);
// fetched only by people who may see the chat (lib/sharing/access.ts), or by the uploader while unsent.
// Limits: per file (PARLEY_MAX_ATTACHMENT_BYTES) and per message (PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES),
// both 413; per member, unsent uploads of the last hour (PARLEY_MAX_UNSENT_ATTACHMENTS files, 409, and
// PARLEY_MAX_UNSENT_ATTACHMENT_BYTES, 413); older unsent ones are swept (lib/retention). The uploader
// removes an unsent one (deleteUnsentAttachment). Types are sniffed from the bytes (sniff.ts), 415 for
// anything else.
import { config } from "../config";
import { db } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { AppError, NotFound } from "../errors";
import { attachmentIdOf, attachmentUrl } from "../format/attachment-url";
import { visibleChats } from "../sharing/access";
import type { TeamContext } from "../teams/team-context";
import { attachmentBytes, chunkStream, rechunk, writeChunk } from "./chunks";
import { boundText, MAX_EXTRACTED_CHARS, pdfText } from "./extract";
import { type Sniffed, sniffBinary, TextCheck, textType } from "./sniff";

type Caller = Pick<TeamContext, "user" | "team">;
type Tx = Prisma.TransactionClient;

export type AttachmentView = { id: string; name: string; mediaType: string; size: number; url: string };
/** A file part of a question, as the UI message holds it. */
export type FilePart = { type: "file"; mediaType: string; url: string; filename: string };

/** Attachments a message may carry at most. */
export const MAX_ATTACHMENTS = 10;
/** How long an upload waits for the message that carries it before it is swept. */
export const UNSENT_MS = 60 * 60 * 1000;

/** A file name without paths or control characters, at most 200 characters. */
function cleanName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
  return clean || "file";
}

/**
 * Stores an upload as it arrives, a chunk at a time (chunks.ts): its type from the first bytes (a text
 * file checked to its end), 413 past the per-file limit, 415 for what Parley does not take; within the
 * member's unsent limits once it is whole. Nothing of a refused or broken upload is kept.
 */
export async function uploadAttachment(ctx: Caller, file: { name: string; body: Uint8Array | AsyncIterable<Uint8Array> }): Promise<AttachmentView> {
  const max = config().PARLEY_MAX_ATTACHMENT_BYTES;
  const name = cleanName(file.name);
  const prisma = await db();
  refuseOverLimits(await unsentWaiting(prisma, ctx.user.id), 0); // already full: refused before any byte is stored
  const text = new TextCheck(MAX_EXTRACTED_CHARS + 1);
  let row: { id: string; type: Sniffed } | undefined;
  let size = 0;
  let seq = 0;
  try {
    for await (const chunk of rechunk(file.body)) {
      size += chunk.byteLength;
      if (size > max) throw new AppError("TooLarge", 413, `The file is larger than ${formatBytes(max)}.`);
      if (!row) {
        const type = sniffBinary(chunk) ?? textType(name);
        const { id } = await prisma.attachment.create({
          data: { teamId: ctx.team.id, userId: ctx.user.id, name, mediaType: type.mediaType, size: 0 },
          select: { id: true },
        });
        row = { id, type };
      }
      if (row.type.kind === "text" && !text.push(chunk)) throw unsupported();
      await writeChunk(row.id, seq++, chunk);
    }
    if (!row || (row.type.kind === "text" && !text.end())) throw unsupported();
    const { id, type } = row;
    const extracted = boundText(type.kind === "text" ? text.text : type.kind === "pdf" ? await pdfText(await attachmentBytes(id)) : null);
    const done = await prisma.$transaction(
      async (tx) => {
        await withinUnsentLimits(tx, ctx.user.id, size);
        return tx.attachment.update({
          where: { id },
          data: { size, text: extracted, complete: true },
          select: { id: true, name: true, mediaType: true, size: true },
        });
        // Uploads picked together finish together, and PGlite runs one transaction at a time: they queue.
      },
      { maxWait: 60_000, timeout: 60_000 },
    );
    return { ...done, url: attachmentUrl(done.id) };
  } catch (e) {
    if (row) await prisma.attachment.deleteMany({ where: { id: row.id } }).catch(() => undefined);
    throw e;
  }
}

const unsupported = () =>
  new AppError(
    "UnsupportedMediaType",
    415,
    "This kind of file cannot be attached. Attach images (PNG, JPEG, GIF, WebP), PDF documents, or text and code files.",
  );

type Query = Pick<Tx, "attachment">;

/** The member's complete unsent uploads of the last hour: how many, and their bytes. */
async function unsentWaiting(q: Query, userId: string): Promise<{ files: number; bytes: number }> {
  const waiting = await q.attachment.aggregate({
    where: { userId, chatId: null, messageId: null, complete: true, createdAt: { gte: new Date(Date.now() - UNSENT_MS) } },
    _count: true,
    _sum: { size: true },
  });
  return { files: waiting._count, bytes: waiting._sum.size ?? 0 };
}

/** Refuses one more upload of `size` bytes past the member's unsent limits: 409 by count, 413 by bytes. */
function refuseOverLimits(waiting: { files: number; bytes: number }, size: number): void {
  const { PARLEY_MAX_UNSENT_ATTACHMENTS: maxFiles, PARLEY_MAX_UNSENT_ATTACHMENT_BYTES: maxBytes } = config();
  const then = "Send them, or remove some, before adding more.";
  if (waiting.files >= maxFiles) throw new AppError("TooManyUnsent", 409, `${maxFiles} files are waiting to be sent. ${then}`);
  if (waiting.bytes + size > maxBytes)
    throw new AppError("TooLarge", 413, `The files waiting to be sent would add up to more than ${formatBytes(maxBytes)}. ${then}`);
}

/** In a transaction: the member's limits checked for an upload of `size` bytes, one upload of theirs at a time. */
async function withinUnsentLimits(tx: Tx, userId: string, size: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`parley:unsent:${userId}`}))`;
  refuseOverLimits(await unsentWaiting(tx, userId), size);
}

/** Removes one of the caller's own unsent uploads (the composer's Remove); 404 for any other. */
export async function deleteUnsentAttachment(ctx: Caller, id: string): Promise<void> {
  const prisma = await db();
  const res = await prisma.attachment.deleteMany({ where: { id, teamId: ctx.team.id, userId: ctx.user.id, chatId: null, messageId: null } });
  if (res.count === 0) throw NotFound("No such attachment.");
}

/** The attachment and a stream of its bytes when the caller may see it: the uploader while unsent, else whoever may see its chat. 404 otherwise. */
export async function readAttachment(ctx: Caller, id: string) {
  const prisma = await db();
  const row = await prisma.attachment.findFirst({
    where: { id, teamId: ctx.team.id, complete: true, OR: [{ chatId: null, userId: ctx.user.id }, { chat: visibleChats(ctx) }] },
    select: { id: true, name: true, mediaType: true, size: true },
  });
  if (!row) throw NotFound("No such attachment.");
  return { ...row, body: chunkStream(row.id) };
}

/** The file parts of a new question: the caller's unsent attachments (404 for any other), within the per-message limit (413). */
export async function questionFiles(ctx: Caller, ids: string[] | undefined): Promise<FilePart[]> {
  if (!ids?.length) return [];
  const unique = [...new Set(ids)];
  if (unique.length > MAX_ATTACHMENTS) throw new AppError("TooLarge", 413, `A message can carry at most ${MAX_ATTACHMENTS} files.`);
  const prisma = await db();
  const rows = await prisma.attachment.findMany({
    where: { id: { in: unique }, teamId: ctx.team.id, userId: ctx.user.id, messageId: null, chatId: null, complete: true },
    select: { id: true, name: true, mediaType: true, size: true },
  });
  if (rows.length !== unique.length) throw NotFound("No such attachment.");
  const max = config().PARLEY_MAX_MESSAGE_ATTACHMENT_BYTES;
  if (rows.reduce((n, r) => n + r.size, 0) > max) throw new AppError("TooLarge", 413, `The files of one message may add up to ${formatBytes(max)} at most.`);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => {
    const r = byId.get(id)!;
    return { type: "file", mediaType: r.mediaType, url: attachmentUrl(r.id), filename: r.name };
  });
}

/** Ids of attachments in file parts (their urls). */
export function attachmentIdsOf(parts: { url: string }[]): string[] {
  return parts.flatMap((p) => attachmentIdOf(p.url) ?? []);
}

/** In the question's transaction: the attachments become the message's (409 when another message took one meanwhile), and its file blocks follow its text. */
export async function claimAttachments(tx: Tx, ctx: Caller, chatId: string, messageId: string, files: FilePart[]): Promise<void> {
  if (!files.length) return;
  const ids = attachmentIdsOf(files);
  const res = await tx.attachment.updateMany({ where: { id: { in: ids }, userId: ctx.user.id, messageId: null, chatId: null }, data: { chatId, messageId } });
  if (res.count !== ids.length) throw new AppError("Conflict", 409, "An attachment was sent with another message already.");
  await tx.block.createMany({
    data: files.map((f, i) => ({ messageId, ordinal: i + 1, kind: "file" as const, status: "done", mediaType: f.mediaType, url: f.url, name: f.filename })),
  });
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} bytes`;
}
