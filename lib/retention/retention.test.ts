// Retention and export: a chat past its team's days is deleted with every row that hangs on it (the
// test counts rows: no orphans), a newer one and other teams' chats stay; unsent uploads go after a day.
// A sweep that deletes chats says so in the log and in the team's audit log. A chat exports as Markdown
// and JSON for those who see it (404 for others); an admin exports a member's chats; an export holds
// what an auditor needs: who decided each call, when and why (denied and timed-out calls apart), the
// rule that asked or let it run, sources, other versions, attachment links and usage.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/turn-harness";
import { createChat, renameChat } from "../chat/chats";
import { shareChat } from "../sharing/shares";
import { exportChat, exportMemberChats } from "./export";
import { chatMarkdown } from "./export-markdown";
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
    await prisma.message.create({
      data: {
        id: `q-${id}`,
        chatId: id,
        role: "user",
        blocks: {
          create: [
            { ordinal: 0, kind: "text", status: "done", text: `Question of ${title}` },
            { ordinal: 1, kind: "file", status: "done", name: "a.txt", mediaType: "text/plain", url: "/api/attachments/x" },
          ],
        },
      },
    });
    await prisma.attachment.create({
      data: {
        teamId: ctx.team.id,
        userId: ctx.user.id,
        chatId: id,
        messageId: `q-${id}`,
        name: "a.txt",
        mediaType: "text/plain",
        size: 3,
        complete: true,
        chunks: { create: { seq: 0, data: Buffer.from("abc") } },
      },
    });
    await prisma.message.create({
      data: {
        id: `a-${id}`,
        chatId: id,
        parentId: `q-${id}`,
        role: "assistant",
        blocks: {
          create: [
            { ordinal: 0, kind: "tool", status: "output-available", toolCallId: `c-${id}`, toolName: "echo", input: { text: "x" }, output: { ok: true } },
            { ordinal: 1, kind: "text", status: "done", text: `Answer of ${title}` },
          ],
        },
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
    const unsent = await prisma.attachment.create({
      data: {
        teamId: one.id,
        userId: admin.user.id,
        name: "u.txt",
        mediaType: "text/plain",
        size: 1,
        complete: true,
        chunks: { create: { seq: 0, data: Buffer.from("u") } },
        createdAt: new Date(Date.now() - 2 * 86_400_000),
      },
    });
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
    expect(md).toMatch(/Attachment: \[a\.txt\]\(\/api\/attachments\/\w+\) \(text\/plain, 3 bytes\)/);
    expect((await exportChat(reader, id)).messages).toHaveLength(2);
    await expect(exportChat(admin, id)).rejects.toMatchObject({ status: 404 }); // not shared with the admin
    await expect(exportChat(stranger, id)).rejects.toMatchObject({ status: 404 });

    const ownerMembership = await prisma.membership.findFirstOrThrow({ where: { userId: owner.user.id } });
    const chats = await exportMemberChats(admin, ownerMembership.id);
    expect(chats.map((c) => c.title)).toEqual(["Report"]);
    await expect(exportMemberChats(stranger, ownerMembership.id)).rejects.toMatchObject({ status: 404 });
  });

  it("a sweep that deletes a team's chats writes a log line and an audit event naming the team and how many", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Swept" } });
    const admin = await teamMember(team.id, "Sweep Admin", "admin");
    const reader = await teamMember(team.id, "Sweep Reader");
    await fullChat(admin, "Old one", reader, 40);
    await fullChat(admin, "Old two", reader, 50);
    await setRetention(admin, 30);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await sweepRetention(prisma);
      expect(log.mock.calls.map((c) => String(c[0])).filter((l) => l.includes(team.id))).toEqual([
        expect.stringMatching(/^\[retention\] team \S+: deleted 2 chats untouched for 30 days/),
      ]);
    } finally {
      log.mockRestore();
    }
    const events = await prisma.auditEvent.findMany({ where: { teamId: team.id, action: "retention.sweep" } });
    expect(events).toEqual([
      expect.objectContaining({ actorId: null, targetType: "team", targetId: team.id, data: expect.objectContaining({ chats: 2, days: 30 }) }),
    ]);
    // A sweep with nothing to delete records nothing.
    await sweepRetention(prisma);
    expect(await prisma.auditEvent.count({ where: { teamId: team.id, action: "retention.sweep" } })).toBe(1);
  });

  it("an export holds who decided each call and when, denied and timed-out calls apart, rules, sources, other versions, attachment links and usage", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Audited" } });
    const admin = await teamMember(team.id, "Ada Admin", "admin");
    const owner = await teamMember(team.id, "Owen Owner");
    const { id } = await createChat(owner);
    await renameChat(owner, id, "Audited chat");
    const at = new Date("2026-03-04T05:06:07.000Z");
    await prisma.message.create({
      data: { id: `q-${id}`, chatId: id, role: "user", blocks: { create: [{ ordinal: 0, kind: "text", status: "done", text: "Pay the invoice" }] } },
    });
    const file = await prisma.attachment.create({
      data: {
        teamId: team.id,
        userId: owner.user.id,
        chatId: id,
        messageId: `q-${id}`,
        name: "invoice.pdf",
        mediaType: "application/pdf",
        size: 3,
        complete: true,
        chunks: { create: { seq: 0, data: Buffer.from("pdf") } },
      },
    });
    await prisma.message.create({
      data: {
        id: `old-${id}`,
        chatId: id,
        parentId: `q-${id}`,
        role: "assistant",
        onBranch: false,
        blocks: { create: [{ ordinal: 0, kind: "text", status: "done", text: "An earlier answer" }] },
      },
    });
    const tool = (ordinal: number, extra: { status: string } & Record<string, unknown>) => ({
      ordinal,
      kind: "tool" as const,
      toolName: "pay",
      toolCallId: `call-${ordinal}-${id}`,
      input: { amount: ordinal * 100 },
      ...extra,
    });
    await prisma.message.create({
      data: {
        id: `a-${id}`,
        chatId: id,
        parentId: `q-${id}`,
        role: "assistant",
        inputTokens: 11,
        outputTokens: 7,
        cost: 0.0012,
        blocks: {
          create: [
            tool(0, {
              status: "output-available",
              output: { paid: true },
              approvalId: `ap0-${id}`,
              approved: true,
              decidedById: admin.user.id,
              decidedAt: at,
              approvalBy: "admin",
              approvalRule: "amount > 50 → an admin approves",
            }),
            tool(1, {
              status: "output-denied",
              approvalId: `ap1-${id}`,
              approved: false,
              decidedById: owner.user.id,
              decidedAt: at,
              decisionReason: "not today",
              approvalBy: "member",
            }),
            tool(2, {
              status: "output-denied",
              approvalId: `ap2-${id}`,
              approved: false,
              decidedById: null,
              decidedAt: at,
              decisionReason: "no decision within 30 minutes",
              approvalBy: "admin",
              approvalRule: "amount > 150 → an admin approves",
            }),
            tool(3, { status: "output-available", output: { paid: true }, approvalBy: "auto", approvalRule: "amount < 500 → run without asking" }),
            { ordinal: 4, kind: "text", status: "done", text: "Paid, see [1]." },
          ],
        },
        citations: { create: { ordinal: 1, url: "https://example.com/invoice", title: "The invoice", origin: "mcp" } },
      },
    });

    const chat = await exportChat(owner, id);
    const calls = chat.messages[1].blocks.filter((b) => b.kind === "tool");
    expect(calls.map((c) => [c.outcome, c.approval?.decision, c.approval?.decidedBy])).toEqual([
      ["done", "approved", "Ada Admin"],
      ["denied", "denied", "Owen Owner"],
      ["timed-out", "timed out", undefined],
      ["done", undefined, undefined],
    ]);
    expect(calls[0].approval).toMatchObject({ required: "admin", rule: "amount > 50 → an admin approves", decidedAt: at.toISOString() });
    expect(calls[1].approval).toMatchObject({ reason: "not today", decidedAt: at.toISOString() });
    expect(calls[2].approval).toMatchObject({ reason: "no decision within 30 minutes", rule: "amount > 150 → an admin approves" });
    expect(calls[3].approval).toEqual({ required: "auto", rule: "amount < 500 → run without asking" });
    expect(chat.messages[1].citations).toEqual([{ n: 1, url: "https://example.com/invoice", title: "The invoice", snippet: null, origin: "mcp" }]);
    expect(chat.messages[1].usage).toMatchObject({ inputTokens: 11, outputTokens: 7, cost: 0.0012 });
    expect(chat.messages[0].attachments).toEqual([{ name: "invoice.pdf", mediaType: "application/pdf", size: 3, url: `/api/attachments/${file.id}` }]);
    expect(chat.otherVersions.map((m) => [m.parentId, m.blocks[0].text])).toEqual([[`q-${id}`, "An earlier answer"]]);

    const md = chatMarkdown(chat);
    for (const line of [
      `Approved by Ada Admin at ${at.toISOString()}. Rule: “amount > 50 → an admin approves”.`,
      `Denied by Owen Owner at ${at.toISOString()}. Reason: not today.`,
      "**Tool call: pay** — Timed out: nobody decided in time (not run)",
      `Timed out at ${at.toISOString()}. Reason: no decision within 30 minutes. Rule: “amount > 150 → an admin approves”.`,
      "Ran without asking: rule “amount < 500 → run without asking”.",
      "[1] The invoice — https://example.com/invoice",
      `Attachment: [invoice.pdf](/api/attachments/${file.id})`,
      "_Usage: 11 input, 7 output tokens, $0.001200._",
      "An earlier answer",
    ]) {
      expect(md).toContain(line);
    }

    // The member's "Export chats" carries the same.
    const membership = await prisma.membership.findFirstOrThrow({ where: { userId: owner.user.id, teamId: team.id } });
    const [exported] = await exportMemberChats(admin, membership.id);
    expect(exported).toEqual(chat);
  });
});
