// A chat's knowledge picker and choice, by who may see what: a member picks team-wide bases for their
// chat and the choice is kept; a chat in a project always searches its project's bases (shown so, and
// searched without being picked); another team's base, another member's personal project's base and
// forged ids are 404 and nothing is saved; another member's chat is 404; a draft's picker lists the
// options of the project it starts in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { createProject } from "../projects/projects";
import { chatBases } from "../knowledge/chat-bases";
import { createKnowledgeBase } from "../knowledge/knowledge-bases";
import { DRIVERS, rejection, startTestApp, teamMember } from "@/test/support/test-app";
import { knowledgeTeam } from "@/test/support/knowledge";
import { chatKnowledge, newChatKnowledge, setChatKnowledge } from "./chat-knowledge";

const embedding = (providerId: string) => ({ providerId, model: "text-embedding-3-small", dimensions: 3 });

let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
}, 120_000);
afterAll(() => stop?.());

describe("a chat's knowledge", () => {
  it("a member picks team-wide bases; a project's bases are always searched; what they cannot see is 404 and nothing is saved", async () => {
    const { admin, member, providerId } = await knowledgeTeam();
    const other = await knowledgeTeam("Other");
    const prisma = await db();
    const { id: handbook } = await createKnowledgeBase(admin, { name: "Handbook", embedding: embedding(providerId) });
    const { id: foreign } = await createKnowledgeBase(other.admin, { name: "Theirs", embedding: embedding(other.providerId) });
    const project = await createProject(member, { name: "Launch" });
    const { id: launchNotes } = await createKnowledgeBase(member, { name: "Launch notes", projectId: project.id, embedding: embedding(providerId) });
    const colleague = await teamMember(admin.team.id, "Cleo Colleague");
    const hidden = await createProject(colleague, { name: "Private" });
    const { id: privateNotes } = await createKnowledgeBase(colleague, { name: "Private notes", projectId: hidden.id, embedding: embedding(providerId) });

    const chat = await prisma.chat.create({ data: { teamId: admin.team.id, userId: member.user.id } });
    expect(await chatKnowledge(member, chat.id)).toEqual({
      options: [{ id: handbook, name: "Handbook", documents: 0, fromProject: false }],
      choice: { bases: [], automatic: false },
    });
    expect(await setChatKnowledge(member, chat.id, { bases: [handbook], automatic: true })).toEqual({ bases: [handbook], automatic: true });
    expect((await chatKnowledge(member, chat.id)).choice).toEqual({ bases: [handbook], automatic: true });

    for (const bases of [[foreign], [privateNotes], ["cm0forgedforgedforged0001"]]) {
      expect((await rejection(setChatKnowledge(member, chat.id, { bases, automatic: false }))).status).toBe(404);
    }
    expect((await chatKnowledge(member, chat.id)).choice).toEqual({ bases: [handbook], automatic: true });
    expect((await rejection(chatKnowledge(colleague, chat.id))).status).toBe(404);
    expect((await rejection(setChatKnowledge(colleague, chat.id, { bases: [], automatic: false }))).status).toBe(404);

    // In the project: its base is listed as the project's and searched without being picked.
    const inProject = await prisma.chat.create({ data: { teamId: admin.team.id, userId: member.user.id, projectId: project.id } });
    expect((await chatKnowledge(member, inProject.id)).options).toEqual([
      { id: handbook, name: "Handbook", documents: 0, fromProject: false },
      { id: launchNotes, name: "Launch notes", documents: 0, fromProject: true },
    ]);
    expect((await chatBases(member, inProject)).map((b) => b.name)).toEqual(["Launch notes"]);
    // A stored choice naming a base the member no longer sees is searched without it.
    const stale = { ...inProject, knowledge: { bases: [handbook, privateNotes, foreign], automatic: false } };
    expect((await chatBases(member, stale)).map((b) => b.name)).toEqual(["Handbook", "Launch notes"]);

    expect((await newChatKnowledge(member, project.id)).options.map((o) => o.name)).toEqual(["Handbook", "Launch notes"]);
    expect((await rejection(newChatKnowledge(member, hidden.id))).status).toBe(404);
  });
});
