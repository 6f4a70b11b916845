// Knowledge search on each database: passages come back with what a citation needs (document, version,
// page, heading path, character range); by text alone any of the question's words counts and passages
// with more of them rank first; with a query embedding, a passage that matches no word but means the
// same comes in, and one first by both rankings leads (reciprocal rank fusion); bases of another team,
// another member's personal project and forged ids give the same nothing as a base without a match;
// passages of a replaced version never come back; either ranking can be asked for alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { createProject } from "../projects/projects";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/test-databases";
import { knowledgeTeam, writePassages, type KnowledgeTeam } from "@/test/support/knowledge";
import { createKnowledgeBase } from "./knowledge-bases";
import { addDocument } from "./documents";
import { anyWordQuery, reciprocalRankFusion, RRF_K, searchKnowledge } from "./search";

const file = (name: string, text: string) => ({ name, mediaType: "text/plain", bytes: new TextEncoder().encode(text) });
const embedding = (providerId: string) => ({ providerId, model: "text-embedding-3-small", dimensions: 3 });

describe("ranking parts", () => {
  it("fuses ranks as Σ 1/(60 + rank), so agreement beats one list's first place", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["b", "d"],
    ]);
    expect([...fused.keys()]).toEqual(["b", "a", "d", "c"]);
    expect(fused.get("b")).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 1), 12);
  });

  it("asks full text for any of the question's words, and nothing for a question without words", () => {
    expect(anyWordQuery("What's the refund policy? (refund!)")).toBe("what | s | the | refund | policy");
    expect(anyWordQuery("&|!:*")).toBeNull();
  });
});

describe.each(DATABASES)("knowledge search on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  let team: KnowledgeTeam;
  let baseId: string;
  let docId: string;

  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    team = await knowledgeTeam();
    ({ id: baseId } = await createKnowledgeBase(team.admin, { name: "Policies", embedding: embedding(team.providerId) }));
    ({ id: docId } = await addDocument(team.admin, baseId, file("handbook.pdf", "the handbook")));
    await writePassages(docId, [
      { text: "Refund policy: customers get a refund within 30 days of purchase.", page: 3, headingPath: ["Sales", "Refunds"], embedding: [1, 0.1, 0] },
      { text: "Our office is closed on public holidays.", page: 5, headingPath: ["Office"], embedding: [0, 1, 0] },
      { text: "Money back is possible for unopened items.", page: 4, headingPath: ["Sales", "Returns"], embedding: [0.9, 0.2, 0] },
      { text: "A refund takes five working days to arrive.", page: 4, headingPath: ["Sales", "Refunds"], embedding: [0, 0, 1] },
    ]);
  }, 120_000);
  afterAll(() => stop?.());

  it("by text alone: passages with the question's words, more of them first, with what a citation links to", async () => {
    const found = await searchKnowledge(team.member, { baseIds: [baseId], query: "refund policy", limit: 10 });
    expect(found.map((p) => p.text)).toEqual([
      "Refund policy: customers get a refund within 30 days of purchase.",
      "A refund takes five working days to arrive.",
    ]);
    const text = "Refund policy: customers get a refund within 30 days of purchase.";
    expect(found[0]).toMatchObject({
      baseId,
      documentId: docId,
      documentName: "handbook.pdf",
      version: 1,
      page: 3,
      headingPath: ["Sales", "Refunds"],
      charStart: 0,
      charEnd: text.length,
    });
    expect(found[0].score).toBeCloseTo(1 / (RRF_K + 1), 12);
    expect(await searchKnowledge(team.member, { baseIds: [baseId], query: "?!", limit: 10 })).toEqual([]);
  });

  it("hybrid: a passage that means the same without the words comes in; first by both leads", async () => {
    const found = await searchKnowledge(team.member, { baseIds: [baseId], query: "refund policy", queryEmbedding: [1, 0, 0], limit: 3 });
    expect(found.map((p) => p.text)).toEqual([
      "Refund policy: customers get a refund within 30 days of purchase.", // first by vector and by text
      "A refund takes five working days to arrive.", // second by text, in the vector list too (far)
      "Money back is possible for unopened items.", // second by vector, no word in common: text alone never finds it
    ]);
    expect(found[0].score).toBeCloseTo(2 / (RRF_K + 1), 12);
    expect(found[2].score).toBeCloseTo(1 / (RRF_K + 2), 12);
    // An embedding of another size than the base's (another model's) leaves the text ranking alone.
    const text = await searchKnowledge(team.member, { baseIds: [baseId], query: "refund policy", queryEmbedding: [1, 0], limit: 3 });
    expect(text.map((p) => p.text)).toHaveLength(2);
  });

  it("one ranking alone: by vector a passage without the words comes first; by text the embedding is ignored", async () => {
    const q = { baseIds: [baseId], query: "refund policy", queryEmbedding: [1, 0, 0], limit: 2 };
    const byVector = await searchKnowledge(team.member, { ...q, mode: "vector" });
    expect(byVector.map((p) => p.text)).toEqual([
      "Refund policy: customers get a refund within 30 days of purchase.",
      "Money back is possible for unopened items.", // no word of the question: only the vector side finds it
    ]);
    expect(byVector[1].score).toBeCloseTo(1 / (RRF_K + 2), 12);
    const byText = await searchKnowledge(team.member, { ...q, mode: "text" });
    expect(byText.map((p) => p.text)).toEqual([
      "Refund policy: customers get a refund within 30 days of purchase.",
      "A refund takes five working days to arrive.",
    ]);
    expect(byText[0].score).toBeCloseTo(1 / (RRF_K + 1), 12); // one list's first place, not both
    // By vector without an embedding: nothing, not a text search in disguise.
    expect(await searchKnowledge(team.member, { baseIds: [baseId], query: "refund policy", limit: 2, mode: "vector" })).toEqual([]);
  });

  it("bases the caller cannot see give the same nothing as a base without a match", async () => {
    const other = await knowledgeTeam("Other");
    const foreign = await createKnowledgeBase(other.admin, { name: "Theirs", embedding: embedding(other.providerId) });
    const { id: theirDoc } = await addDocument(other.admin, foreign.id, file("theirs.txt", "their refunds"));
    await writePassages(theirDoc, [{ text: "Refund policy of the other team.", embedding: [1, 0, 0] }]);
    const owner = await teamMember(team.admin.team.id, "Owner");
    const personal = await createProject(owner, { name: "Private" });
    const hidden = await createKnowledgeBase(owner, { name: "Private notes", projectId: personal.id, embedding: embedding(team.providerId) });
    const { id: hiddenDoc } = await addDocument(owner, hidden.id, file("notes.txt", "private"));
    await writePassages(hiddenDoc, [{ text: "My private refund policy notes.", embedding: [1, 0, 0] }]);
    const empty = await createKnowledgeBase(team.admin, { name: "Empty", embedding: embedding(team.providerId) });

    for (const baseIds of [[foreign.id], [hidden.id], ["forged-id"], [empty.id], []]) {
      expect(await searchKnowledge(team.member, { baseIds, query: "refund policy", queryEmbedding: [1, 0, 0], limit: 5 }), baseIds.join()).toEqual([]);
    }
    const mixed = await searchKnowledge(team.member, {
      baseIds: [foreign.id, hidden.id, baseId],
      query: "refund policy",
      queryEmbedding: [1, 0, 0],
      limit: 10,
    });
    expect(new Set(mixed.map((p) => p.baseId))).toEqual(new Set([baseId]));
    // Its owner finds their own.
    expect((await searchKnowledge(owner, { baseIds: [hidden.id], query: "refund", limit: 5 })).map((p) => p.text)).toEqual(["My private refund policy notes."]);
  });

  it("never returns passages of a version that was replaced", async () => {
    const base = await createKnowledgeBase(team.admin, { name: "Versions", embedding: embedding(team.providerId) });
    const { id } = await addDocument(team.admin, base.id, file("v.txt", "v1"));
    const prisma = await db();
    await writePassages(id, [{ text: "Warranty lasts one year.", embedding: [1, 0, 0] }]);
    await prisma.knowledgeDocument.update({ where: { id }, data: { version: 2 } }); // as if the indexing of version 2 were under way
    await writePassages(id, [{ text: "Warranty lasts two years.", embedding: [1, 0, 0] }], 2);
    const found = await searchKnowledge(team.member, { baseIds: [base.id], query: "warranty", queryEmbedding: [1, 0, 0], limit: 5 });
    expect(found.map((p) => [p.text, p.version])).toEqual([["Warranty lasts two years.", 2]]);
  });
});
