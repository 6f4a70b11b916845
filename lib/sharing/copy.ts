// "Continue in my copy": a member a chat is shared with as "can continue" gets a chat of their own
// with the conversation as it stands (the branch it shows; a turn still being written is left out),
// its blocks, citations and attachments copied (new rows, so revoking the share or deleting the
// original leaves the copy whole). The copy is private until its new owner shares it.
import crypto from "node:crypto";
import { audited } from "../audit";
import { NotFound } from "../errors";
import { attachmentIdOf, attachmentUrl } from "../format/attachment-url";
import type { Prisma } from "../db/generated/client";
import type { TeamContext } from "../teams/team-context";
import { chatAccess } from "./access";

const JSON_FIELDS = ["data", "input", "output", "providerMetadata", "extras"];
const TX = { maxWait: 30_000, timeout: 60_000 };

/** Copies a chat shared with the caller as "can continue" into a new chat of theirs; its id. */
export async function copyChat(ctx: TeamContext, chatId: string): Promise<{ id: string }> {
  const access = await chatAccess(ctx, chatId);
  if (access.owner || !access.canContinue) throw NotFound("This chat is not shared with you to continue.");
  const source = access.chat;
  return audited(
    ctx,
    async (tx) => {
      const messages = await tx.message.findMany({
        where: { chatId, onBranch: true, status: { not: "streaming" } },
        orderBy: { seq: "asc" },
        include: { blocks: { orderBy: { ordinal: "asc" } }, citations: true, attachments: true },
      });
      const chat = await tx.chat.create({
        data: {
          teamId: ctx.team.id,
          userId: ctx.user.id,
          title: `${source.title ?? "Untitled chat"} (copy)`.slice(0, 120),
          modelId: source.modelId,
          toolSelection: source.toolSelection ?? undefined,
        },
      });
      const ids = new Map<string, string>();
      for (const m of messages) ids.set(m.id, crypto.randomUUID());
      let parentId: string | null = null;
      for (const m of messages) {
        const id = ids.get(m.id)!;
        const attachmentIds = new Map<string, string>();
        for (const a of m.attachments) {
          const copy = await tx.attachment.create({
            data: {
              teamId: ctx.team.id,
              userId: ctx.user.id,
              chatId: chat.id,
              messageId: null,
              name: a.name,
              mediaType: a.mediaType,
              size: a.size,
              complete: a.complete,
              text: a.text,
            },
            select: { id: true },
          });
          // The bytes are copied inside the database, never through this process's memory.
          await tx.$executeRaw`INSERT INTO "AttachmentChunk" ("attachmentId", "seq", "data") SELECT ${copy.id}, "seq", "data" FROM "AttachmentChunk" WHERE "attachmentId" = ${a.id}`;
          attachmentIds.set(a.id, copy.id);
        }
        await tx.message.create({
          data: {
            id,
            chatId: chat.id,
            parentId,
            role: m.role,
            status: m.status,
            model: m.model,
            finishReason: m.finishReason,
            metadata: m.metadata ?? undefined,
          },
        });
        if (attachmentIds.size) await tx.attachment.updateMany({ where: { id: { in: [...attachmentIds.values()] } }, data: { messageId: id } });
        const blockIds = new Map<string, string>();
        for (const b of m.blocks) {
          const { id: oldId, messageId: _m, createdAt: _c, updatedAt: _u, ...fields } = b;
          void _m;
          void _c;
          void _u;
          const attached = b.kind === "file" && b.url ? attachmentIdOf(b.url) : undefined;
          const url = attached && attachmentIds.has(attached) ? attachmentUrl(attachmentIds.get(attached)!) : b.url;
          const data = { ...fields, messageId: id, url, approvalId: null } as Record<string, unknown>;
          // A JSON column that is null stays unset (Prisma takes no plain null for JSON).
          for (const k of JSON_FIELDS) if (data[k] === null) delete data[k];
          const created = await tx.block.create({ data: data as Prisma.BlockUncheckedCreateInput, select: { id: true } });
          blockIds.set(oldId, created.id);
        }
        if (m.citations.length) {
          await tx.citation.createMany({
            data: m.citations.map((c) => ({
              messageId: id,
              blockId: c.blockId ? (blockIds.get(c.blockId) ?? null) : null,
              ordinal: c.ordinal,
              url: c.url,
              title: c.title,
              snippet: c.snippet,
              origin: c.origin,
              // A knowledge passage keeps its document, version, page and range in the copy.
              knowledgeDocumentId: c.knowledgeDocumentId,
              documentVersion: c.documentVersion,
              page: c.page,
              charStart: c.charStart,
              charEnd: c.charEnd,
            })),
          });
        }
        parentId = id;
      }
      return { id: chat.id };
    },
    (res) => ({ action: "chat.copy", targetType: "chat", targetId: res.id, data: { from: chatId } }),
    TX,
  );
}
