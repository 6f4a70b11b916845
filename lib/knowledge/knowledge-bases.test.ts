// Knowledge bases and their documents' records on each database, by the team's and projects' rules:
// admins make and change team-wide bases, members see them and change nothing (403); a project's base
// is its editors' to change and its viewers' to see; another team, another member's personal project and
// forged ids are 404. Documents: queued with size, who and when; the same bytes twice in a base refused
// (409, naming the first), replacing makes the next version and drops the old passages, re-indexing
// drops them too; the team's storage cap refuses a file that would pass it; deleting a base takes its
// documents, passages and embeddings.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { createProject } from "../projects/projects";
import { startTestApp, rejection, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/test-databases";
import { knowledgeTeam, writePassages } from "@/test/support/knowledge";
import { createKnowledgeBase, deleteKnowledgeBase, listKnowledgeBases, renameKnowledgeBase } from "./knowledge-bases";
import { addDocument, deleteDocument, listDocuments, reindexDocument, replaceDocument, TEAM_KNOWLEDGE_BYTES } from "./documents";

const file = (name: string, text: string) => ({ name, mediaType: "text/plain", bytes: new TextEncoder().encode(text) });
const embedding = (providerId: string) => ({ providerId, model: "text-embedding-3-small", dimensions: 3 });

describe.each(DATABASES)("knowledge bases on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
  }, 120_000);
  afterAll(() => stop?.());

  it("a team-wide base is the admins' to change and every member's to see; other teams and forged ids get 404", async () => {
    const { admin, member, providerId } = await knowledgeTeam();
    const other = await knowledgeTeam("Other");
    expect((await rejection(createKnowledgeBase(member, { name: "Handbook", embedding: embedding(providerId) }))).status).toBe(403);
    const { id } = await createKnowledgeBase(admin, { name: "Handbook", description: "How we work", embedding: embedding(providerId) });

    const seen = await listKnowledgeBases(member);
    expect(seen).toMatchObject([{ id, name: "Handbook", description: "How we work", canManage: false, createdBy: "Ada Admin", documents: 0 }]);
    expect((await listKnowledgeBases(admin))[0].canManage).toBe(true);
    expect(await listKnowledgeBases(other.admin)).toEqual([]);

    expect((await rejection(renameKnowledgeBase(member, id, { name: "Mine" }))).status).toBe(403);
    expect((await rejection(addDocument(member, id, file("a.txt", "a")))).status).toBe(403);
    expect((await rejection(renameKnowledgeBase(other.admin, id, { name: "Theirs" }))).status).toBe(404);
    expect((await rejection(addDocument(other.admin, id, file("a.txt", "a")))).status).toBe(404);
    expect((await rejection(listDocuments(other.admin, id))).status).toBe(404);
    expect((await rejection(deleteKnowledgeBase(admin, "forged-id"))).status).toBe(404);
    // A provider of another team cannot embed this team's base.
    expect((await rejection(createKnowledgeBase(admin, { name: "X", embedding: embedding(other.providerId) }))).status).toBe(400);

    await renameKnowledgeBase(admin, id, { name: "Team handbook" });
    expect((await listKnowledgeBases(member)).map((b) => b.name)).toEqual(["Team handbook"]);
  });

  it("a project's base follows the project: its creator changes it, a personal project's base is hidden from the team", async () => {
    const { admin, member, providerId } = await knowledgeTeam();
    const colleague = await teamMember(member.team.id, "Colleague");
    const personal = await createProject(member, { name: "Mine" });
    const shared = await createProject(member, { name: "Ours", shared: true });
    const mine = await createKnowledgeBase(member, { name: "Notes", projectId: personal.id, embedding: embedding(providerId) });
    const ours = await createKnowledgeBase(member, { name: "Specs", projectId: shared.id, embedding: embedding(providerId) });
    // Someone who cannot see a project cannot put a base in it.
    expect((await rejection(createKnowledgeBase(colleague, { name: "X", projectId: personal.id, embedding: embedding(providerId) }))).status).toBe(400);
    expect((await rejection(createKnowledgeBase(colleague, { name: "X", projectId: shared.id, embedding: embedding(providerId) }))).status).toBe(403);

    expect((await listKnowledgeBases(colleague)).map((b) => b.name)).toEqual(["Specs"]);
    expect((await rejection(listDocuments(colleague, mine.id))).status).toBe(404);
    expect((await rejection(addDocument(colleague, ours.id, file("a.txt", "a")))).status).toBe(403);
    expect((await listKnowledgeBases(member, { projectId: personal.id })).map((b) => b.name)).toEqual(["Notes"]);
    // A team admin may change a shared project's base, not a member's personal one (they do not see it).
    await addDocument(admin, ours.id, file("spec.txt", "the spec"));
    expect((await rejection(addDocument(admin, mine.id, file("a.txt", "a")))).status).toBe(404);
  });

  it("documents: queued with size and who added them, duplicates refused, replaced as a new version, re-indexed, deleted", async () => {
    const { admin, member, providerId } = await knowledgeTeam();
    const base = await createKnowledgeBase(admin, { name: "Policies", embedding: embedding(providerId) });
    const other = await createKnowledgeBase(admin, { name: "Other", embedding: embedding(providerId) });
    const { id } = await addDocument(admin, base.id, file("refunds.txt", "Refunds within 30 days."));
    const [doc] = await listDocuments(member, base.id);
    expect(doc).toMatchObject({
      id,
      name: "refunds.txt",
      mediaType: "text/plain",
      size: 23,
      version: 1,
      status: "queued",
      progress: 0,
      error: null,
      addedBy: "Ada Admin",
    });
    expect(Date.now() - Date.parse(doc.addedAt)).toBeLessThan(60_000);

    const dup = await rejection(addDocument(admin, base.id, file("copy.txt", "Refunds within 30 days.")));
    expect([dup.status, dup.message]).toEqual([409, "copy.txt is already in this knowledge base, as refunds.txt."]);
    await addDocument(admin, other.id, file("copy.txt", "Refunds within 30 days.")); // another base may hold it

    await writePassages(id, [{ text: "Refunds within 30 days.", embedding: [1, 0, 0] }]);
    const prisma = await db();
    await prisma.knowledgeDocument.update({ where: { id }, data: { status: "ready", progress: 1, pages: 1 } });
    expect((await rejection(replaceDocument(admin, id, file("refunds.txt", "Refunds within 30 days.")))).status).toBe(409);
    expect(await replaceDocument(admin, id, file("refunds-v2.txt", "Refunds within 60 days."))).toEqual({ version: 2 });
    expect((await listDocuments(admin, base.id))[0]).toMatchObject({ name: "refunds-v2.txt", version: 2, status: "queued", pages: null, size: 23 });
    expect(await prisma.knowledgeChunk.count({ where: { documentId: id } })).toBe(0);

    await writePassages(id, [{ text: "Refunds within 60 days." }]);
    await prisma.knowledgeDocument.update({ where: { id }, data: { status: "failed", error: "The PDF is encrypted." } });
    await reindexDocument(admin, id);
    expect((await listDocuments(admin, base.id))[0]).toMatchObject({ status: "queued", error: null, version: 2 });
    expect(await prisma.knowledgeChunk.count({ where: { documentId: id } })).toBe(0);

    expect((await rejection(deleteDocument(member, id))).status).toBe(403);
    await deleteDocument(admin, id);
    expect(await listDocuments(admin, base.id)).toEqual([]);
  });

  it("refuses a file that would take the team past its storage cap", async () => {
    const { admin, providerId } = await knowledgeTeam();
    const base = await createKnowledgeBase(admin, { name: "Big", embedding: embedding(providerId) });
    const prisma = await db();
    // A document recorded as nearly the whole allowance (its bytes need not be that large for the sum).
    await prisma.knowledgeDocument.create({
      data: {
        baseId: base.id,
        name: "huge.pdf",
        mediaType: "application/pdf",
        size: TEAM_KNOWLEDGE_BYTES - 10,
        sha256: "0".repeat(64),
        content: new Uint8Array([1]),
      },
    });
    const refused = await rejection(addDocument(admin, base.id, file("more.txt", "twenty bytes of text")));
    expect(refused.status).toBe(413);
    expect(refused.message).toContain("more than the 1024 MB allowed");
    await addDocument(admin, base.id, file("small.txt", "tiny")); // 4 bytes still fit
  });

  it("deleting a base deletes its documents' files, passages and embeddings", async () => {
    const { admin, providerId } = await knowledgeTeam();
    const base = await createKnowledgeBase(admin, { name: "Gone soon", embedding: embedding(providerId) });
    const kept = await createKnowledgeBase(admin, { name: "Kept", embedding: embedding(providerId) });
    const { id } = await addDocument(admin, base.id, file("a.txt", "alpha"));
    const { id: keptDoc } = await addDocument(admin, kept.id, file("b.txt", "beta"));
    await writePassages(id, [{ text: "alpha", embedding: [1, 0, 0] }]);
    await writePassages(keptDoc, [{ text: "beta", embedding: [0, 1, 0] }]);
    await deleteKnowledgeBase(admin, base.id);
    const prisma = await db();
    const left = await prisma.$queryRawUnsafe<{ baseId: string; embedded: boolean }[]>(
      `SELECT "baseId", "embedding" IS NOT NULL AS embedded FROM "KnowledgeChunk" WHERE "baseId" IN ($1, $2)`,
      base.id,
      kept.id,
    );
    expect(left).toEqual([{ baseId: kept.id, embedded: true }]);
    expect(await prisma.knowledgeDocument.count({ where: { baseId: base.id } })).toBe(0);
    expect((await listKnowledgeBases(admin)).map((b) => b.name)).toEqual(["Kept"]);
  });
});
