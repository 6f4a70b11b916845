// Retention and export: a chat past its team's days is deleted with every row that hangs on it (the
// test counts rows: no orphans), a newer one and other teams' chats stay; unsent uploads go after a day.
// A chat exports as Markdown and JSON for those who see it (404 for others); an admin exports a member's chats.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/context";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/turn-harness";
import { createChat, renameChat } from "../chat/chats";
import { shareChat } from "../sharing/shares";
import { chatMarkdown, exportChat, exportMemberChats } from "./export";
import { setRetention, sweepRetention } from "./retention";

describe.each(DATABASES)("retention and export on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(() => stop?.());


  /** A chat with a question (and its attachment), an answer with a tool block and a citation, and a share. */
  async function fullChat(ctx: TeamContext, title: string, reader: TeamContext, daysOld: number) {
    const prisma = await db();
    const { id } = await createChat(ctx);
    await renameChat(ctx, id, title);
    await prisma.message.create({ data: { id: `q-${id}`, chatId: id, role: "user", blocks: { create: [{ ordinal: 0, kind: "text", status: "done", text: `Question of ${title}` }, { ordinal: 1, kind: "file", status: "done", name: "a.txt", mediaType: "text/plain", url: "/api/attachments/x" }] } } });
    await prisma.attachment.create({ data: { teamId: ctx.team.id, userId: ctx.user.id, chatId: id, messageId: `q-${id}`, name: "a.txt", mediaType: "text/plain", size: 3, data: Buffer.from("abc") } });
    await prisma.message.create({
      data: {
        id: `a-${id}`,
        chatId: id,
        parentId: `q-${id}`,
        role: "assistant",
        blocks: { create: [{ ordinal: 0, kind: "tool", status: "output-available", toolCallId: `c-${id}`, toolName: "echo", input: { text: "x" }, output: { ok: true } }, { ordinal: 1, kind: "text", status: "done", text: `Answer of ${title}` }] },
        citations: { create: { ordinal: 1, url: "https://example.com/", origin: "mcp" } },
      },
    });
    await prisma.usageRecord.create({ data: { teamId: ctx.team.id, userId: ctx.user.id, chatId: id, messageId: `a-${id}`, model: "m" } });
    await shareChat(ctx, id, { userId: reader.user.id });
    await prisma.chat.update({ where: { id }, data: { updatedAt: new Date(Date.now() - daysOld * 86_400_000) } });
    return id;
  }

  async function rowsOf(chatId: string) {
    const prisma = await db();
    const messages = { chatId };
    return {
      chat: await prisma.chat.count({ where: { id: chatId } }),
      messages: await prisma.message.count({ where: messages }),
      blocks: await prisma.block.count({ where: { message: messages } }),
      citations: await prisma.citation.count({ where: { message: messages } }),
      attachments: await prisma.attachment.count({ where: { chatId } }),
      shares: await prisma.chatShare.count({ where: { chatId } }),
    };
  }

  it("deletes chats past the team's days with all their rows, keeps the rest, and leaves no orphans", async () => {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const admin = await teamMember(one.id, "Admin", "admin");
    const reader = await teamMember(one.id, "Reader");
    const other = await teamMember(two.id, "Other");
    const otherReader = await teamMember(two.id, "Other reader");
    const old = await fullChat(admin, "Old", reader, 40);
    const recent = await fullChat(admin, "Recent", reader, 5);
    const elsewhere = await fullChat(other, "Elsewhere", otherReader, 400);
    const unsent = await prisma.attachment.create({ data: { teamId: one.id, userId: admin.user.id, name: "u.txt", mediaType: "text/plain", size: 1, data: Buffer.from("u"), createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    const full = { chat: 1, messages: 2, blocks: 4, citations: 1, attachments: 1, shares: 1 };
    expect(await rowsOf(old)).toEqual(full);

    expect(await sweepRetention(prisma)).toMatchObject({ chats: 0 }); // kept for ever by default
    expect(await rowsOf(old)).toEqual(full);

    await setRetention(admin, 30);
    const swept = await sweepRetention(prisma);
    expect(swept.chats).toBe(1);
    expect(await rowsOf(old)).toEqual({ chat: 0, messages: 0, blocks: 0, citations: 0, attachments: 0, shares: 0 });
    expect(await rowsOf(recent)).toEqual(full);
    expect(await rowsOf(elsewhere)).toEqual(full); // team Two keeps for ever
    expect(await prisma.attachment.count({ where: { id: unsent.id } })).toBe(0);
    // No orphans anywhere: every block, citation, share and attachment still has its parent.
    const orphans = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT ((SELECT count(*) FROM "Block" b LEFT JOIN "Message" m ON m."id" = b."messageId" WHERE m."id" IS NULL)
             + (SELECT count(*) FROM "Message" m LEFT JOIN "Chat" c ON c."id" = m."chatId" WHERE c."id" IS NULL)
             + (SELECT count(*) FROM "Citation" x LEFT JOIN "Message" m ON m."id" = x."messageId" WHERE m."id" IS NULL)
             + (SELECT count(*) FROM "Attachment" a LEFT JOIN "Chat" c ON c."id" = a."chatId" WHERE a."chatId" IS NOT NULL AND c."id" IS NULL)
             + (SELECT count(*) FROM "ChatShare" s LEFT JOIN "Chat" c ON c."id" = s."chatId" WHERE c."id" IS NULL))::int AS n`,
    );
    expect(orphans[0].n).toBe(0);
    expect(await prisma.usageRecord.count({ where: { chatId: old } })).toBe(1); // usage stays, unlinked
    expect(await prisma.usageRecord.count({ where: { chatId: old, messageId: { not: null } } })).toBe(0);
    expect(await prisma.auditEvent.count({ where: { action: "team.retention", teamId: one.id } })).toBe(1);
  });

  it("exports a chat as Markdown and JSON to those who see it, and a member's chats to an admin", async () => {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const admin = await teamMember(one.id, "Admin", "admin");
    const owner = await teamMember(one.id, "Owner");
    const reader = await teamMember(one.id, "Reader");
    const stranger = await teamMember(two.id, "Stranger", "admin");
    const id = await fullChat(owner, "Report", reader, 0);

    const md = chatMarkdown(await exportChat(owner, id));
    expect(md).toContain("# Report");
    expect(md).toContain("Question of Report");
    expect(md).toContain("**Tool call: echo**");
    expect(md).toContain("Attachment: a.txt (text/plain)");
    expect((await exportChat(reader, id)).messages).toHaveLength(2);
    await expect(exportChat(admin, id)).rejects.toMatchObject({ status: 404 }); // not shared with the admin
    await expect(exportChat(stranger, id)).rejects.toMatchObject({ status: 404 });

    const ownerMembership = await prisma.membership.findFirstOrThrow({ where: { userId: owner.user.id } });
    const chats = await exportMemberChats(admin, ownerMembership.id);
    expect(chats.map((c) => c.title)).toEqual(["Report"]);
    await expect(exportMemberChats(stranger, ownerMembership.id)).rejects.toMatchObject({ status: 404 });
  });
});
