// Sharing a chat (access.ts, shares.ts, copy.ts), as the routes call it: who sees a shared chat, who
// follows its stream, who may act in it; revoking takes effect on the next request; members of another
// team never see it, whatever they try; "can continue" makes a copy of one's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/turn-harness";
import { createChat, deleteChat, getChat, renameChat } from "../chat/chats";
import { loadMessagePage } from "../chat/history";
import { loadTurn } from "../turn/turn-load";
import { resumeTurn, stopTurn } from "../turn/turn-follow";
import { streamRegistry } from "../turn/stream-registry";
import { chatAccess, viewableChat } from "./access";
import { copyChat } from "./copy";
import { listShares, listSharedWithMe, revokeShare, shareChat } from "./shares";

describe.each(DATABASES)("on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(() => stop?.());

  /** A team of three (owner, reader, bystander), a member of another team, and the owner's chat with one question and answer. */
  async function setting() {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const owner = await teamMember(one.id, "Owner");
    const reader = await teamMember(one.id, "Reader");
    const bystander = await teamMember(one.id, "Bystander");
    const stranger = await teamMember(two.id, "Stranger");
    const { id } = await createChat(owner);
    await renameChat(owner, id, "Plans");
    await prisma.message.create({
      data: { id: `q-${id}`, chatId: id, role: "user", blocks: { create: { ordinal: 0, kind: "text", status: "done", text: "What is the plan?" } } },
    });
    await prisma.message.create({
      data: {
        id: `a-${id}`,
        chatId: id,
        parentId: `q-${id}`,
        role: "assistant",
        blocks: {
          create: [
            {
              ordinal: 0,
              kind: "tool",
              status: "output-available",
              toolCallId: "c1",
              toolName: "echo",
              input: { text: "hi" },
              output: { content: [{ type: "text", text: "hi" }] },
            },
            { ordinal: 1, kind: "text", status: "done", text: "The plan is to ship." },
          ],
        },
        citations: { create: { ordinal: 1, url: "https://example.com/", origin: "mcp" } },
      },
    });
    return { owner, reader, bystander, stranger, id, teamTwo: two.id };
  }

  it("a chat shared with one member is theirs to see and follow, read-only; nobody else sees it", async () => {
    const { owner, reader, bystander, stranger, id } = await setting();
    const registry = await streamRegistry();
    for (const other of [reader, bystander, stranger]) await expect(viewableChat(other, id)).rejects.toMatchObject({ status: 404 });

    await shareChat(owner, id, { userId: reader.user.id });
    expect(await chatAccess(reader, id)).toMatchObject({ owner: false, canContinue: false, ownerName: "Owner" });
    expect((await listSharedWithMe(reader)).map((c) => [c.title, c.owner])).toEqual([["Plans", "Owner"]]);
    expect((await loadMessagePage((await viewableChat(reader, id)).id)).messages).toHaveLength(2);
    expect(await resumeTurn(reader, id)).toBeNull(); // allowed: nothing runs now

    // Read-only: the reader cannot send, stop, rename, delete, reshare, list or revoke.
    await expect(loadTurn(reader, { chatId: id, text: "mine now" }, registry)).rejects.toMatchObject({ status: 404 });
    await expect(getChat(reader, id)).rejects.toMatchObject({ status: 404 });
    await expect(stopTurn(reader, id)).rejects.toMatchObject({ status: 404 });
    await expect(renameChat(reader, id, "Theirs")).rejects.toMatchObject({ status: 404 });
    await expect(deleteChat(reader, id)).rejects.toMatchObject({ status: 404 });
    await expect(shareChat(reader, id, { userId: bystander.user.id })).rejects.toMatchObject({ status: 404 });
    await expect(listShares(reader, id)).rejects.toMatchObject({ status: 404 });
    await expect(copyChat(reader, id)).rejects.toMatchObject({ status: 404 });

    // The bystander and the other team's member still see nothing.
    for (const other of [bystander, stranger]) {
      await expect(viewableChat(other, id)).rejects.toMatchObject({ status: 404 });
      await expect(resumeTurn(other, id)).rejects.toMatchObject({ status: 404 });
      expect(await listSharedWithMe(other)).toEqual([]);
    }
    expect((await getChat(owner, id)).title).toBe("Plans");
  });

  it("a member of another team can neither be shared with nor see a team-wide share", async () => {
    const { owner, reader, bystander, stranger, id, teamTwo } = await setting();
    await expect(shareChat(owner, id, { userId: stranger.user.id })).rejects.toMatchObject({ status: 404 });
    await expect(shareChat(owner, id, { userId: owner.user.id })).rejects.toMatchObject({ status: 404 });
    await shareChat(owner, id, { userId: null });
    for (const m of [reader, bystander]) expect((await chatAccess(m, id)).owner).toBe(false);
    await expect(viewableChat(stranger, id)).rejects.toMatchObject({ status: 404 });
    // Even a share row naming the stranger (forged below the app) does not cross teams.
    const prisma = await db();
    await prisma.chatShare.create({ data: { chatId: id, userId: stranger.user.id, createdById: owner.user.id } });
    await expect(viewableChat(stranger, id)).rejects.toMatchObject({ status: 404 });
    // Nor does the owner see their own chat from their other team.
    await prisma.membership.create({ data: { teamId: teamTwo, userId: owner.user.id } });
    const ownerInTwo: TeamContext = { ...owner, team: { id: teamTwo, name: "Two", role: "member" } };
    await expect(viewableChat(ownerInTwo, id)).rejects.toMatchObject({ status: 404 });
  });

  it("revoking a share takes effect on the member's next request", async () => {
    const { owner, reader, id } = await setting();
    const share = await shareChat(owner, id, { userId: reader.user.id, canContinue: true });
    expect((await listShares(owner, id)).shares.map((s) => [s.name, s.canContinue])).toEqual([["Reader", true]]);
    await viewableChat(reader, id);
    await revokeShare(owner, id, share.id);
    await expect(viewableChat(reader, id)).rejects.toMatchObject({ status: 404 });
    await expect(copyChat(reader, id)).rejects.toMatchObject({ status: 404 });
    expect(await listSharedWithMe(reader)).toEqual([]);
    await expect(revokeShare(owner, id, share.id)).rejects.toMatchObject({ status: 404 });
    const prisma = await db();
    expect(await prisma.auditEvent.count({ where: { targetId: id, action: { in: ["chat.share", "chat.unshare"] } } })).toBe(2);
  });

  it("'can continue' gives the member a copy of their own, whole, which outlives the share and the original", async () => {
    const { owner, reader, id } = await setting();
    await shareChat(owner, id, { userId: reader.user.id, canContinue: true });
    const copy = await copyChat(reader, id);
    expect(copy.id).not.toBe(id);
    const mine = await getChat(reader, copy.id);
    expect(mine).toMatchObject({ userId: reader.user.id, title: "Plans (copy)" });
    await deleteChat(owner, id);
    const page = await loadMessagePage(copy.id);
    expect(page.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(page.messages[1].parts.map((p) => p.type)).toEqual([expect.stringMatching(/tool/), "text"]);
    expect(JSON.stringify(page.messages[1].parts)).toContain("The plan is to ship.");
    const prisma = await db();
    expect(await prisma.citation.count({ where: { message: { chatId: copy.id } } })).toBe(1);
    // The copy is private: the owner of the original does not see it.
    await expect(viewableChat(owner, copy.id)).rejects.toMatchObject({ status: 404 });
  });
});
