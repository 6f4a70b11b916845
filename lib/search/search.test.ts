// Full-text search (search.ts) on each database: it finds words in titles, text, tool inputs and tool
// outputs of the member's own chats and of chats shared with them, with the hit marked in the snippet;
// never in a chat that is not shared with them, nor across teams; a share revoked stops the results;
// a block's text that grows or changes is searched as it is now; one result per chat, newest first.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/turn-harness";
import { createChat, renameChat } from "../chat/chats";
import { revokeShare, shareChat } from "../sharing/shares";
import { searchChats, segments } from "./search";

describe("snippets", () => {
  it("come back as plain segments with the hits marked", () => {
    expect(segments("the \uE000zebra\uE001 runs <b>")).toEqual([
      { text: "the ", hit: false },
      { text: "zebra", hit: true },
      { text: " runs <b>", hit: false },
    ]);
  });
});

describe.each(DATABASES)("search on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(() => stop?.());

  it("finds titles, text, tool inputs and outputs in own and shared chats, and nowhere else", async () => {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const owner = await teamMember(one.id, "Owner");
    const reader = await teamMember(one.id, "Reader");
    const stranger = await teamMember(two.id, "Stranger");
    const { id } = await createChat(owner);
    await renameChat(owner, id, "Aardvark migration");
    await prisma.message.create({
      data: {
        id: `m-${id}`,
        chatId: id,
        role: "assistant",
        blocks: {
          create: [
            { ordinal: 0, kind: "text", status: "done", text: "The platypus report is due on Friday, said the team lead." },
            {
              ordinal: 1,
              kind: "tool",
              status: "output-available",
              toolCallId: "t1",
              toolName: "lookup",
              input: { city: "Wollongong" },
              output: { content: [{ type: "text", text: "Weather: quokka sunny" }] },
            },
          ],
        },
      },
    });
    // The stranger's own chat in their team has the same word: they find theirs only.
    const theirs = await createChat(stranger);
    await prisma.message.create({
      data: { id: `m-${theirs.id}`, chatId: theirs.id, role: "user", blocks: { create: { ordinal: 0, kind: "text", status: "done", text: "platypus facts" } } },
    });

    const found = await searchChats(owner, "platypus");
    expect(found.map((r) => r.chatId)).toEqual([id]);
    expect(found[0].snippet.filter((s) => s.hit).map((s) => s.text.toLowerCase())).toEqual(["platypus"]);
    expect(found[0]).toMatchObject({ mine: true, owner: "Owner", messageId: `m-${id}` });
    expect((await searchChats(owner, "Wollongong")).map((r) => r.chatId)).toEqual([id]); // tool input
    expect((await searchChats(owner, "quokka")).map((r) => r.chatId)).toEqual([id]); // tool output
    const byTitle = await searchChats(owner, "aardvark");
    expect(byTitle.map((r) => r.chatId)).toEqual([id]);
    expect(byTitle[0].snippet.some((s) => s.hit && /aardvark/i.test(s.text))).toBe(true);
    expect(await searchChats(owner, '"report is due" -banana')).toHaveLength(1);
    expect(await searchChats(owner, "nothing-like-this")).toEqual([]);

    expect(await searchChats(reader, "platypus")).toEqual([]);
    const share = await shareChat(owner, id, { userId: reader.user.id });
    expect((await searchChats(reader, "platypus")).map((r) => [r.chatId, r.mine])).toEqual([[id, false]]);
    expect((await searchChats(stranger, "platypus")).map((r) => r.chatId)).toEqual([theirs.id]);
    await revokeShare(owner, id, share.id);
    expect(await searchChats(reader, "platypus")).toEqual([]);
    await shareChat(owner, id, { userId: null });
    expect((await searchChats(reader, "quokka")).map((r) => r.chatId)).toEqual([id]);
    expect((await searchChats(stranger, "quokka")).map((r) => r.chatId)).toEqual([]);
  });

  it("follows a block's text as it grows while streaming and is edited, and a chat's new title", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Four" } });
    const m = await teamMember(team.id, "Writer");
    const { id } = await createChat(m);
    await renameChat(m, id, "Quarterly numbers");
    const message = await prisma.message.create({ data: { id: `m-${id}`, chatId: id, role: "assistant", status: "streaming" } });
    const block = await prisma.block.create({ data: { messageId: message.id, ordinal: 0, kind: "text", status: "streaming", text: "The first" } });
    expect(await searchChats(m, "ocelot")).toEqual([]);
    // The block writer updates the row as text arrives: the next search sees the new words.
    await prisma.block.update({ where: { id: block.id }, data: { text: "The first sighting of an ocelot" } });
    const grown = await searchChats(m, "ocelot");
    expect(grown.map((r) => r.messageId)).toEqual([message.id]);
    expect(grown[0].snippet.filter((s) => s.hit).map((s) => s.text)).toEqual(["ocelot"]);
    await prisma.block.update({ where: { id: block.id }, data: { text: "The first sighting of a margay", status: "done" } });
    expect(await searchChats(m, "ocelot")).toEqual([]);
    expect((await searchChats(m, "margay")).map((r) => r.chatId)).toEqual([id]);
    await renameChat(m, id, "Yearly figures");
    expect(await searchChats(m, "quarterly")).toEqual([]);
    expect((await searchChats(m, "yearly")).map((r) => r.title)).toEqual(["Yearly figures"]);
  });

  it("gives one result per chat, newest first, and a chat with hundreds of matches does not hide the others", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Five" } });
    const m = await teamMember(team.id, "Busy");
    const start = Date.now() - 3_600_000;
    const older: string[] = [];
    for (let i = 0; i < 33; i++) {
      const { id } = await createChat(m);
      older.push(id);
      await prisma.message.create({
        data: {
          id: `m-${id}`,
          chatId: id,
          role: "user",
          createdAt: new Date(start + i * 1000),
          blocks: { create: { ordinal: 0, kind: "text", status: "done", text: `note ${i} about the zebu` } },
        },
      });
    }
    // The newest chat mentions the word in 320 blocks, more than a page of matches on its own.
    const busy = await createChat(m);
    await prisma.message.create({ data: { id: `m-${busy.id}`, chatId: busy.id, role: "assistant", createdAt: new Date(start + 60_000) } });
    await prisma.block.createMany({
      data: Array.from({ length: 320 }, (_, i) => ({ messageId: `m-${busy.id}`, ordinal: i, kind: "text" as const, status: "done", text: `zebu line ${i}` })),
    });
    const found = await searchChats(m, "zebu");
    expect(found.map((r) => r.chatId)).toEqual([busy.id, ...older.slice(-29).reverse()]);
    expect(found[1].snippet.map((s) => s.text).join("")).toContain("note 32 about the zebu");
  });

  it("finds a phrase said only long ago, behind 20,000 newer blocks holding its words apart", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Seven" } });
    const m = await teamMember(team.id, "Keeper");
    const old = await createChat(m);
    await prisma.message.create({
      data: {
        id: `m-${old.id}`,
        chatId: old.id,
        role: "user",
        blocks: { create: { ordinal: 0, kind: "text", status: "done", text: "we saw a red panda today" } },
      },
    });
    const recent = await createChat(m);
    await prisma.message.create({ data: { id: `m-${recent.id}`, chatId: recent.id, role: "assistant" } });
    // In SQL for speed; ids after every cuid ("z…" > "c…"), as newer blocks' ids are.
    await prisma.$executeRawUnsafe(
      `INSERT INTO "Block" ("id", "messageId", "ordinal", "kind", "status", "text", "updatedAt")
       SELECT 'z-' || $1 || '-' || lpad(g::text, 6, '0'), 'm-' || $1, g, 'text', 'done', 'panda ' || g || ' and red', now() FROM generate_series(1, 20500) g`,
      recent.id,
    );
    expect((await searchChats(m, '"red panda"')).map((r) => r.chatId)).toEqual([old.id]);
  }, 120_000);

  it("stores a tool output too big to index whole (an image in base64) and still finds the words before it", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Six" } });
    const m = await teamMember(team.id, "Painter");
    const { id } = await createChat(m);
    const image = randomBytes(1_500_000).toString("base64"); // ~2 MB of distinct "words": over a tsvector's 1 MB
    await prisma.message.create({
      data: {
        id: `m-${id}`,
        chatId: id,
        role: "assistant",
        blocks: {
          create: {
            ordinal: 0,
            kind: "tool",
            status: "output-available",
            toolCallId: "t-img",
            toolName: "draw",
            input: { prompt: "a narwhal" },
            output: { content: [{ type: "image", data: image, mimeType: "image/png" }] },
          },
        },
      },
    });
    expect((await searchChats(m, "narwhal")).map((r) => r.chatId)).toEqual([id]);
  });

  it("refuses empty, over-long and NUL-holding searches with 400, and treats operators in the query as text", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Three" } });
    const m = await teamMember(team.id, "M");
    for (const q of ["", "   ", "x".repeat(201), "a\u0000b"]) await expect(searchChats(m, q)).rejects.toMatchObject({ status: 400 });
    for (const q of ['\'); DROP TABLE "Chat"; --', "a & | ! ( ) :*", "\\"]) expect(await searchChats(m, q)).toEqual([]);
  });
});
