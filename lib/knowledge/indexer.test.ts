// Indexing knowledge documents on each database, against a real OpenAI-compatible embeddings endpoint
// (aimock on loopback): a queued document becomes ready with its passages (pages, headings, exact
// ranges), its text and its embeddings, and is found by meaning; a scan without text fails with the
// reason and is not retried; an embedding server that is down puts the document back in line with the
// reason and fails it after the last try; a claim that ran out (an instance that died) is taken again
// and the stale work is dropped; a document replaced while it is indexed keeps only the new version; the
// app's indexer runs from start-up and an upload wakes it.
import type { LLMock } from "@copilotkit/aimock";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { encryptSecret } from "../security/keyring";
import { startTestApp } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/test-databases";
import { knowledgeTeam, writePassages, type KnowledgeTeam } from "@/test/support/knowledge";
import { startUpstream } from "@/test/support/test-turns";
import { addDocument, listDocuments, replaceDocument } from "./documents";
import { embedQuery } from "./embed";
import { claimNextDocument, indexDocument, indexDue, MAX_ATTEMPTS, startIndexer } from "./indexer";
import { createKnowledgeBase } from "./knowledge-bases";
import { searchKnowledge } from "./search";

const DIMENSIONS = 1536; // aimock's embeddings
const markdown = (title: string) => ({
  name: `${title}.md`,
  mediaType: "text/markdown",
  bytes: new TextEncoder().encode(
    `# ${title}\n\nThe office opens at nine and closes at five.\n\n## Refunds\n\nCustomers get their money back within 30 days of purchase.\n`,
  ),
});

describe.each(DATABASES)("indexing knowledge documents on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  let mock: LLMock;
  let team: KnowledgeTeam;
  let baseId = "";
  const useServer = async (url: string) => {
    const prisma = await db();
    await prisma.provider.update({ where: { id: team.providerId }, data: { baseUrl: `${url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") } });
  };
  const statusOf = async (id: string) => (await listDocuments(team.admin, baseId)).find((d) => d.id === id)!;

  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    mock = await startUpstream();
    team = await knowledgeTeam();
    await useServer(mock.url);
    ({ id: baseId } = await createKnowledgeBase(team.admin, {
      name: "Handbook",
      embedding: { providerId: team.providerId, model: "text-embedding-test", dimensions: DIMENSIONS },
    }));
  }, 120_000);
  afterAll(async () => {
    await mock?.stop();
    await stop?.();
  });

  it("a queued document becomes ready with its passages, text and embeddings, and is found by meaning", async () => {
    const { id } = await addDocument(team.admin, baseId, markdown("Office"));
    expect((await statusOf(id)).status).toBe("queued");
    expect(await indexDue()).toBe(1);
    expect(await statusOf(id)).toMatchObject({ status: "ready", progress: 1, pages: 1 });

    const prisma = await db();
    const doc = await prisma.knowledgeDocument.findUniqueOrThrow({ where: { id }, select: { text: true } });
    const chunks = await prisma.knowledgeChunk.findMany({ where: { documentId: id }, orderBy: { ordinal: "asc" } });
    expect(chunks.length).toBeGreaterThan(0);
    for (const c of chunks) expect(doc.text!.slice(c.charStart, c.charEnd)).toBe(c.text); // a citation's range holds
    const refunds = chunks.find((c) => c.text.includes("money back"))!;
    expect(refunds.headingPath).toEqual(["Office", "Refunds"]);

    const target = {
      provider: (await prisma.provider.findUniqueOrThrow({ where: { id: team.providerId } }))!,
      modelId: "text-embedding-test",
      dimensions: DIMENSIONS,
    };
    const found = await searchKnowledge(team.member, { baseIds: [baseId], query: "zzz", queryEmbedding: await embedQuery(target, refunds.text), limit: 1 });
    expect(found[0]).toMatchObject({ documentId: id, text: refunds.text, headingPath: ["Office", "Refunds"] });
  });

  it("a large document is written in batches: every passage once, with its embedding, and a try that stopped mid-way leaves no copies", async () => {
    const sections = Array.from({ length: 180 }, (_, i) => `## Section ${i + 1}\n\n${`Rule ${i + 1} of the long handbook says this. `.repeat(30)}\n`).join(
      "\n",
    );
    const { id } = await addDocument(team.admin, baseId, {
      name: "long.md",
      mediaType: "text/markdown",
      bytes: new TextEncoder().encode(`# Long\n\n${sections}`),
    });
    const prisma = await db();
    // Passages left of this version by a try that stopped mid-way.
    await writePassages(id, [{ text: "left over from a stopped try" }, { text: "and another" }]);
    expect(await indexDue()).toBe(1);
    const chunks = await prisma.knowledgeChunk.findMany({ where: { documentId: id }, orderBy: { ordinal: "asc" } });
    expect(chunks.length).toBeGreaterThan(150);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    expect(chunks.some((c) => c.text.includes("left over"))).toBe(false);
    const [{ n }] = await prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "KnowledgeChunk" WHERE "documentId" = $1 AND "embedding" IS NOT NULL`,
      id,
    );
    expect(n).toBe(chunks.length);
    expect(await statusOf(id)).toMatchObject({ status: "ready" });
  });

  it("a scan without text fails with the reason a person reads, and is not tried again", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const { id } = await addDocument(team.admin, baseId, { name: "scan.pdf", mediaType: "application/pdf", bytes: await pdf.save() });
    expect(await indexDue()).toBe(1);
    expect(await statusOf(id)).toMatchObject({ status: "failed", error: expect.stringContaining("no text layer (it looks scanned)") });
    expect(await indexDue()).toBe(0);
  });

  it("an embedding server that is down: back in line with the reason, then failed after the last try", async () => {
    await useServer("http://127.0.0.1:9");
    try {
      const { id } = await addDocument(team.admin, baseId, markdown("Down"));
      expect(await indexDue({ retryBaseMs: 60_000 })).toBe(1);
      const waiting = await statusOf(id);
      expect(waiting).toMatchObject({ status: "queued", error: expect.stringContaining("Could not reach the embedding model text-embedding-test") });
      expect(await indexDue()).toBe(0); // not due before its delay

      const prisma = await db();
      await prisma.knowledgeDocument.update({ where: { id }, data: { retryAt: new Date(0) } });
      expect(await indexDue({ retryBaseMs: 0 })).toBe(MAX_ATTEMPTS - 1);
      expect(await statusOf(id)).toMatchObject({ status: "failed", error: expect.stringContaining("Could not reach") });
    } finally {
      await useServer(mock.url);
    }
  });

  it("a claim that ran out is taken again, and the instance that lost it drops its work", async () => {
    const { id } = await addDocument(team.admin, baseId, markdown("Claims"));
    const now = new Date();
    const first = await claimNextDocument(now, 1_000);
    expect(first?.id).toBe(id);
    expect(await claimNextDocument(now)).toBeUndefined(); // held: no second instance takes it
    const second = await claimNextDocument(new Date(now.getTime() + 2_000));
    expect(second?.id).toBe(id);
    expect(await indexDocument(first!)).toBe("dropped");
    expect(await indexDocument(second!)).toBe("ready");
    expect((await statusOf(id)).status).toBe("ready");
  });

  it("a document replaced while it is indexed keeps only the new version's passages", async () => {
    const { id } = await addDocument(team.admin, baseId, markdown("Versions"));
    const claim = await claimNextDocument();
    expect(claim?.id).toBe(id);
    await replaceDocument(team.admin, id, markdown("Renamed"));
    expect(await indexDocument(claim!)).toBe("dropped");
    expect(await indexDue()).toBe(1);
    const prisma = await db();
    const chunks = await prisma.knowledgeChunk.findMany({ where: { documentId: id } });
    expect(chunks.length).toBeGreaterThan(0);
    expect(new Set(chunks.map((c) => c.version))).toEqual(new Set([2]));
    expect(chunks.some((c) => c.text.includes("# Renamed"))).toBe(true);
  });

  it("an indexer is woken by an upload, not only at its next look, and stops when asked", async () => {
    const stopIndexer = startIndexer({ intervalMs: 10 * 60_000 }); // only the upload's wake can start it in time
    try {
      const { id } = await addDocument(team.admin, baseId, markdown("Woken"));
      await expect.poll(async () => (await statusOf(id)).status, { timeout: 10_000 }).toBe("ready");
    } finally {
      await stopIndexer();
    }
  });
});

describe("the app's own indexer", () => {
  let stop: (() => Promise<void>) | undefined;
  let mock: LLMock | undefined;
  const before = process.env.PARLEY_KNOWLEDGE_INDEXER;

  afterAll(async () => {
    await stop?.();
    await mock?.stop();
    process.env.PARLEY_KNOWLEDGE_INDEXER = before;
  });

  it("runs from start-up and indexes a document added to a base", async () => {
    process.env.PARLEY_KNOWLEDGE_INDEXER = "1";
    ({ stop } = await startTestApp(DATABASES[0]));
    mock = await startUpstream();
    const team = await knowledgeTeam();
    const prisma = await db();
    await prisma.provider.update({ where: { id: team.providerId }, data: { baseUrl: `${mock.url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") } });
    const { id: baseId } = await createKnowledgeBase(team.admin, {
      name: "Handbook",
      embedding: { providerId: team.providerId, model: "text-embedding-test", dimensions: DIMENSIONS },
    });
    const { id } = await addDocument(team.admin, baseId, markdown("Woken"));
    await expect.poll(async () => (await listDocuments(team.member, baseId)).find((d) => d.id === id)?.status, { timeout: 10_000 }).toBe("ready");
  });
});
