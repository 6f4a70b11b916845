// The sidebar's chat list (chat-list.ts, chats.ts updateChat): date groups in the user's time zone,
// search by title in the database, pinned first, archived only in the archived view and restorable,
// pages that follow each other without gaps, bad queries refused, and every change limited to the
// caller's own chats in their team (another member's or another team's chat: 404, nothing changes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/turn-harness";
import { dateGroup, listChatPage, parseChatListQuery } from "./chat-list";
import { deleteChat, getChat, updateChat, updateChatSchema } from "./chats";

const NOW = new Date("2026-11-24T10:00:00Z");
const daysAgo = (d: number, hours = 0) => new Date(NOW.getTime() - d * 86_400_000 - hours * 3_600_000);

describe("date groups", () => {
  it("name days relative to today in the user's time zone, then months", () => {
    expect(dateGroup(daysAgo(0, 9), NOW)).toBe("Today");
    expect(dateGroup(daysAgo(1), NOW)).toBe("Yesterday");
    expect(dateGroup(daysAgo(3), NOW)).toBe("Previous 7 days");
    expect(dateGroup(daysAgo(7), NOW)).toBe("Previous 7 days");
    expect(dateGroup(daysAgo(8), NOW)).toBe("Previous 30 days");
    expect(dateGroup(daysAgo(30), NOW)).toBe("Previous 30 days");
    expect(dateGroup(daysAgo(40), NOW)).toBe("October 2026");
    expect(dateGroup(new Date("2025-12-31T12:00:00Z"), NOW)).toBe("December 2025");
    // 23:30 UTC yesterday is already today in Tokyo, and 01:00 UTC today is still yesterday in New York.
    const late = new Date("2026-11-23T23:30:00Z");
    expect(dateGroup(late, NOW, "UTC")).toBe("Yesterday");
    expect(dateGroup(late, NOW, "Asia/Tokyo")).toBe("Today");
    expect(dateGroup(new Date("2026-11-24T01:00:00Z"), NOW, "America/New_York")).toBe("Yesterday");
  });
});

describe.each(DATABASES)("the chat list on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(() => stop?.());

  /** A chat of `ctx` titled `title`, last active at `at`. */
  async function chat(ctx: TeamContext, title: string, at: Date): Promise<string> {
    const prisma = await db();
    const { id } = await prisma.chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id, title } });
    await prisma.chat.update({ where: { id }, data: { updatedAt: at } });
    return id;
  }

  const titles = (page: { chats: { title: string | null; group: string }[] }) => page.chats.map((c) => `${c.group}: ${c.title}`);

  it("groups by day and month, searches titles, puts pinned chats first and keeps archived ones apart", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Listers" } });
    const me = await teamMember(team.id, "me");
    const today = await chat(me, "Tidepool ecology", daysAgo(0, 1));
    const yesterday = await chat(me, "Sourdough starter", daysAgo(1));
    await chat(me, "Tidal calendar for Brest", daysAgo(5));
    const old = await chat(me, "Kayak repair", daysAgo(20));
    await chat(me, "Knot tying", daysAgo(45));

    expect(titles(await listChatPage(me, {}, NOW))).toEqual([
      "Today: Tidepool ecology",
      "Yesterday: Sourdough starter",
      "Previous 7 days: Tidal calendar for Brest",
      "Previous 30 days: Kayak repair",
      "October 2026: Knot tying",
    ]);
    // Search: any part of the title, any case, in the database.
    expect(titles(await listChatPage(me, { q: "TIDE" }, NOW))).toEqual(["Today: Tidepool ecology"]);
    expect(titles(await listChatPage(me, { q: "tid" }, NOW))).toEqual(["Today: Tidepool ecology", "Previous 7 days: Tidal calendar for Brest"]);
    expect((await listChatPage(me, { q: "no such words" }, NOW)).chats).toEqual([]);
    // A literal % or _ in the search matches itself, not everything.
    expect((await listChatPage(me, { q: "%" }, NOW)).chats).toEqual([]);

    // Pinned: on top, in a group of its own, newest pin first; its last activity is unchanged.
    await updateChat(me, old, { pinned: true });
    await updateChat(me, yesterday, { pinned: true });
    expect(titles(await listChatPage(me, {}, NOW)).slice(0, 3)).toEqual(["Pinned: Sourdough starter", "Pinned: Kayak repair", "Today: Tidepool ecology"]);
    expect((await getChat(me, old)).updatedAt).toEqual(daysAgo(20));
    expect(titles(await listChatPage(me, { q: "kayak" }, NOW))).toEqual(["Pinned: Kayak repair"]);
    await updateChat(me, old, { pinned: false });
    expect(titles(await listChatPage(me, {}, NOW))).toContain("Previous 30 days: Kayak repair");

    // Archived: gone from the list, shown (and searchable) in the archived view, restorable.
    await updateChat(me, today, { archived: true });
    expect(titles(await listChatPage(me, {}, NOW))).not.toContain("Today: Tidepool ecology");
    expect(titles(await listChatPage(me, { view: "archived" }, NOW))).toEqual(["Today: Tidepool ecology"]);
    expect((await listChatPage(me, { view: "archived", q: "sourdough" }, NOW)).chats).toEqual([]);
    // Archiving a pinned chat unpins it.
    await updateChat(me, yesterday, { archived: true });
    expect((await listChatPage(me, { view: "archived" }, NOW)).chats.map((c) => [c.title, c.pinned, c.archived])).toEqual([
      ["Tidepool ecology", false, true],
      ["Sourdough starter", false, true],
    ]);
    await updateChat(me, today, { archived: false });
    await updateChat(me, yesterday, { archived: false });
    expect(titles(await listChatPage(me, {}, NOW)).slice(0, 2)).toEqual(["Today: Tidepool ecology", "Yesterday: Sourdough starter"]);
    expect((await listChatPage(me, { view: "archived" }, NOW)).chats).toEqual([]);
  });

  it("pages through a long list without gaps or repeats, chats with the same time included", async () => {
    const prisma = await db();
    const team = await prisma.team.create({ data: { name: "Many" } });
    const me = await teamMember(team.id, "busy");
    const same = daysAgo(2);
    for (let i = 0; i < 7; i++) await chat(me, `Chat ${i}`, i < 4 ? same : daysAgo(3 + i));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listChatPage(me, { limit: 3, cursor }, NOW);
      expect(page.chats.length).toBeLessThanOrEqual(3);
      seen.push(...page.chats.map((c) => c.title!));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it("refuses bad queries and changes with 400", () => {
    const bad = (q: string) => () => parseChatListQuery(new URLSearchParams(q));
    expect(bad("view=deleted")).toThrow(expect.objectContaining({ status: 400 }));
    expect(bad("tz=Mars/Olympus_Mons")).toThrow(expect.objectContaining({ status: 400 }));
    expect(bad("cursor=yesterday")).toThrow(expect.objectContaining({ status: 400 }));
    expect(bad(`q=${"x".repeat(201)}`)).toThrow(expect.objectContaining({ status: 400 }));
    expect(bad("q=a%00b")).toThrow(expect.objectContaining({ status: 400 }));
    expect(parseChatListQuery(new URLSearchParams("q=tide&view=archived&tz=Europe/Paris"))).toMatchObject({ q: "tide", view: "archived", tz: "Europe/Paris" });
    expect(updateChatSchema.safeParse({}).success).toBe(false);
    expect(updateChatSchema.safeParse({ pinned: "yes" }).success).toBe(false);
    expect(updateChatSchema.safeParse({ title: "  " }).success).toBe(false);
    expect(updateChatSchema.safeParse({ archived: true, owner: "me" }).success).toBe(false);
  });

  it("lists and changes only the caller's own chats in their team: others get 404 and nothing changes", async () => {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const owner = await teamMember(one.id, "owner");
    const neighbour = await teamMember(one.id, "neighbour");
    await prisma.membership.create({ data: { teamId: two.id, userId: owner.user.id, role: "admin" } });
    const ownerElsewhere: TeamContext = { ...owner, team: { id: two.id, name: "Two", role: "admin" } };
    const id = await chat(owner, "Private plans", daysAgo(0));
    await updateChat(owner, id, { pinned: true });

    for (const other of [neighbour, ownerElsewhere]) {
      expect((await listChatPage(other, {}, NOW)).chats).toEqual([]);
      expect((await listChatPage(other, { q: "Private" }, NOW)).chats).toEqual([]);
      for (const change of [{ title: "Theirs" }, { pinned: false }, { archived: true }]) {
        await expect(updateChat(other, id, change)).rejects.toMatchObject({ status: 404 });
      }
      await expect(deleteChat(other, id)).rejects.toMatchObject({ status: 404 });
    }
    await expect(updateChat(owner, "no-such-chat", { pinned: true })).rejects.toMatchObject({ status: 404 });
    expect(await getChat(owner, id)).toMatchObject({ title: "Private plans", archivedAt: null });
    expect((await getChat(owner, id)).pinnedAt).not.toBeNull();
  });
});
