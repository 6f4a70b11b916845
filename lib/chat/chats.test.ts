// Chat ownership (chats.ts ownChat): a chat is its owner's, in its team; another member of the team,
// or the owner acting in another team, gets 404 from every read and write, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { chatTools, setChatTools } from "./chat-tools";
import { createChat, deleteChat, getChat, renameChat } from "./chats";
import { listChatPage } from "./chat-list";
import { loadTurn } from "../turn/turn-load";
import { streamRegistry } from "../turn/stream-registry";
import { DATABASES } from "@/test/support/turn-harness";

describe.each(DATABASES)("on $name", (driver) => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 180_000);
  afterAll(() => stop?.());

  it("only the owner, in the chat's team, reads, renames, deletes or picks tools; others get 404 and change nothing", async () => {
    const prisma = await db();
    const [one, two] = await Promise.all([prisma.team.create({ data: { name: "One" } }), prisma.team.create({ data: { name: "Two" } })]);
    const owner = await teamMember(one.id, "owner");
    const neighbour = await teamMember(one.id, "neighbour");
    await prisma.membership.create({ data: { teamId: two.id, userId: owner.user.id, role: "admin" } });
    const ownerElsewhere: TeamContext = { ...owner, team: { id: two.id, name: "Two", role: "admin" } };
    const { id } = await createChat(owner);
    await renameChat(owner, id, "Mine");

    expect((await getChat(owner, id)).title).toBe("Mine");
    expect((await listChatPage(owner)).chats.map((c) => c.id)).toEqual([id]);
    expect(await chatTools(owner, id)).toMatchObject({ selection: { servers: [], tools: [] } });
    const registry = await streamRegistry();
    for (const other of [neighbour, ownerElsewhere]) {
      expect((await listChatPage(other)).chats).toEqual([]);
      await expect(getChat(other, id)).rejects.toMatchObject({ status: 404 });
      await expect(renameChat(other, id, "Theirs")).rejects.toMatchObject({ status: 404 });
      await expect(deleteChat(other, id)).rejects.toMatchObject({ status: 404 });
      await expect(chatTools(other, id)).rejects.toMatchObject({ status: 404 });
      await expect(setChatTools(other, id, { servers: [], tools: [] })).rejects.toMatchObject({ status: 404 });
      await expect(loadTurn(other, { chatId: id, text: "hello" }, registry)).rejects.toMatchObject({ status: 404 });
    }
    expect((await getChat(owner, id)).title).toBe("Mine");
    await deleteChat(owner, id);
    await expect(getChat(owner, id)).rejects.toMatchObject({ status: 404 });
  });
});
