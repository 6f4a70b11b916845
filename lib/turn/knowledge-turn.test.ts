// Knowledge in a chat, end to end below the browser: a real PDF indexed through the real pipeline
// (extraction, chunks, embeddings from the scripted upstream's /v1/embeddings), then turns against the
// scripted model. With the search tool the model's call is a block (query in, passages out, an audit
// event), the model is told each passage's citation number, and the answer's citation is stored linked
// to the document, its version, page and character range (and kept by an export and a shared copy);
// set to retrieve automatically, the passages
// reach the model with the system prompt and are cited the same way. A base the member cannot see is
// never searched, and an embedding server that is down leaves a search by words, said so. The team's
// search policy makes a search wait for the member (or an admin), or turns knowledge off.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { encryptSecret } from "@/lib/security/keyring";
import { addDocument } from "@/lib/knowledge/documents";
import { indexDue } from "@/lib/knowledge/indexer";
import { createKnowledgeBase } from "@/lib/knowledge/knowledge-bases";
import type { TeamContext } from "@/lib/teams/team-context";
import { exportChat } from "@/lib/retention/export";
import { copyChat } from "@/lib/sharing/copy";
import { shareChat } from "@/lib/sharing/shares";
import { makePdf } from "@/test/support/knowledge";
import { startTestApp, teamMember } from "@/test/support/test-app";
import { DATABASES } from "@/test/support/test-databases";
import { readChunks, startUpstream, storedAnswer, teamWithProvider } from "@/test/support/test-turns";
import { setKnowledgeSearchPolicy } from "@/lib/knowledge/search-policy";
import { runTurn, storedTurn } from "@/test/support/turn-harness";

const LEAVE = "Parental leave lasts sixteen weeks at full pay for every employee.";

describe.each(DATABASES)("knowledge in a chat on $name", (driver) => {
  let stop: (() => Promise<void>) | undefined;
  let mock: LLMock;
  let admin: TeamContext;
  let baseId = "";
  let documentId = "";
  let embeddingsProviderId = "";

  beforeAll(async () => {
    ({ stop } = await startTestApp(driver));
    mock = await startUpstream();
    const setup = await teamWithProvider(mock.url);
    admin = setup.ctx;
    const prisma = await db();
    const embeddings = await prisma.provider.create({
      data: { teamId: admin.team.id, name: "Embeddings", kind: "openai_compatible", baseUrl: `${mock.url}/v1`, apiKeyEnc: encryptSecret("sk-test-1234567890") },
    });
    embeddingsProviderId = embeddings.id;
    ({ id: baseId } = await createKnowledgeBase(admin, {
      name: "Handbook",
      embedding: { providerId: embeddings.id, model: "text-embedding-test", dimensions: 1536 },
    }));
    const pdf = await makePdf([
      [
        [24, "Welcome"],
        [11, "The office opens at nine and closes at five on weekdays."],
      ],
      [
        [24, "Leave"],
        [11, LEAVE],
      ],
      [[11, "Expenses are paid back within ten days of a claim."]],
    ]);
    ({ id: documentId } = await addDocument(admin, baseId, { name: "handbook.pdf", mediaType: "application/pdf", bytes: pdf }));
    expect(await indexDue()).toBe(1);
    expect(await prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: documentId } })).toMatchObject({ status: "ready", pages: 3 });
  }, 180_000);

  afterAll(async () => {
    await mock?.stop();
    await stop?.();
  });

  async function chatWith(ctx: TeamContext, knowledge: unknown) {
    const prisma = await db();
    return prisma.chat.create({ data: { teamId: ctx.team.id, userId: ctx.user.id, knowledge: knowledge as object } });
  }

  async function turn(ctx: TeamContext, chatId: string, text: string) {
    const done = storedTurn();
    await (await runTurn(ctx, { chatId, text }, { onStored: done.onStored })).text();
    await done.promise;
    return storedAnswer(chatId);
  }

  const requestsFor = (prompt: string) => mock.getRequests().filter((r) => r.path.endsWith("/chat/completions") && JSON.stringify(r.body).includes(prompt));
  const toolsOffered = (prompt: string) =>
    ((requestsFor(prompt)[0].body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);

  it("the model searches with the tool; the block shows query and passages; the answer's citation points at page 2's passage", async () => {
    const prompt = "How long is parental leave?";
    mock.addFixture({
      match: { userMessage: prompt, hasToolResult: false },
      response: { toolCalls: [{ name: "knowledge_search", arguments: JSON.stringify({ query: "parental leave weeks" }), id: "call_leave" }] },
    });
    mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: "Parental leave is sixteen weeks at full pay [1]." } });
    const chat = await chatWith(admin, { bases: [baseId], automatic: false });
    const answer = await turn(admin, chat.id, prompt);

    const block = answer.blocks.find((b) => b.kind === "tool")!;
    expect(block).toMatchObject({ toolName: "knowledge_search", toolSource: "builtin", status: "output-available", input: { query: "parental leave weeks" } });
    const output = block.output as { passages: { n: number; documentName: string; page: number; text: string }[] };
    expect(output.passages[0]).toMatchObject({ n: 1, documentName: "handbook.pdf", page: 2 });
    expect(output.passages[0].text).toContain("sixteen weeks");
    // The model read the passage with its number and place.
    const second = JSON.stringify(requestsFor(prompt).at(-1)!.body);
    expect(second).toContain("[1] handbook.pdf, page 2");

    const prisma = await db();
    const doc = await prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: documentId } });
    const citation = await prisma.citation.findFirstOrThrow({ where: { messageId: answer.id, ordinal: 1 } });
    expect(citation).toMatchObject({ origin: "knowledge", knowledgeDocumentId: documentId, documentVersion: 1, page: 2, title: "handbook.pdf, page 2" });
    expect(doc.text!.slice(citation.charStart!, citation.charEnd!)).toContain(LEAVE);
    expect(citation.url).toBe(`/knowledge/documents/${documentId}?v=1&from=${citation.charStart}&to=${citation.charEnd}`);
    expect(await prisma.auditEvent.count({ where: { teamId: admin.team.id, action: "knowledge.search", targetId: chat.id } })).toBe(1);

    // An export names the passage; a member's copy of the shared chat keeps it.
    const exported = await exportChat(admin, chat.id);
    expect(exported.messages[1].citations[0]).toMatchObject({
      origin: "knowledge",
      title: "handbook.pdf, page 2",
      passage: { documentId, version: 1, page: 2, charStart: citation.charStart, charEnd: citation.charEnd },
    });
    const reader = await teamMember(admin.team.id, "Rita Reader");
    await shareChat(admin, chat.id, { userId: reader.user.id, canContinue: true });
    const copy = await copyChat(reader, chat.id);
    const copied = await prisma.citation.findFirstOrThrow({ where: { message: { chatId: copy.id }, ordinal: 1 } });
    expect(copied).toMatchObject({ origin: "knowledge", knowledgeDocumentId: documentId, page: 2, charStart: citation.charStart, url: citation.url });

    // The next turn's history gives the model the same numbered passages, not the stored JSON.
    mock.addFixture({ match: { userMessage: "And expenses?" }, response: { content: "Ten days." } });
    await turn(admin, chat.id, "And expenses?");
    const history = JSON.stringify(requestsFor("And expenses?")[0].body);
    expect(history).toContain("[1] handbook.pdf, page 2");
    expect(history).not.toContain('"knowledge":true');
  });

  it("set to retrieve automatically: the passages come with the system prompt, numbered, and the citation is stored; no tool is offered", async () => {
    const prompt = "When are expenses paid back?";
    mock.addFixture({ match: { userMessage: prompt }, response: { content: "Within ten days of a claim [1]." } });
    const chat = await chatWith(admin, { bases: [baseId], automatic: true });
    const answer = await turn(admin, chat.id, prompt);
    const sent = requestsFor(prompt)[0].body as { messages: { role: string; content: string }[] };
    const system = sent.messages.find((m) => m.role === "system")!.content;
    expect(system).toMatch(/\[1\] handbook\.pdf, page 3 \(Leave\)\nExpenses are paid back within ten days/);
    expect(toolsOffered(prompt)).not.toContain("knowledge_search");
    const prisma = await db();
    expect(await prisma.citation.findFirstOrThrow({ where: { messageId: answer.id, ordinal: 1 } })).toMatchObject({ origin: "knowledge", page: 3 });
  });

  it("a base the member cannot see (another team's, or forged) is never searched: no tool, no passages", async () => {
    const other = await teamWithProvider(mock.url);
    const prompt = "What does the other team's handbook say?";
    mock.addFixture({ match: { userMessage: prompt }, response: { content: "I cannot tell." } });
    const chat = await chatWith(other.ctx, { bases: [baseId, "forged-id-0000000000"], automatic: false });
    await turn(other.ctx, chat.id, prompt);
    expect(toolsOffered(prompt)).not.toContain("knowledge_search");
    expect(JSON.stringify(requestsFor(prompt)[0].body)).not.toContain("sixteen weeks");

    const automatic = await chatWith(other.ctx, { bases: [baseId], automatic: true });
    const again = "Anything about leave in there?";
    mock.addFixture({ match: { userMessage: again }, response: { content: "Nothing." } });
    await turn(other.ctx, automatic.id, again);
    expect(JSON.stringify(requestsFor(again)[0].body)).not.toContain("sixteen weeks");
  });

  it("a member of the team searches a team-wide base; an embedding server that is down leaves a search by words, and says so", async () => {
    const member = await teamMember(admin.team.id, "Mia Member");
    const prisma = await db();
    await prisma.provider.update({ where: { id: embeddingsProviderId }, data: { baseUrl: "http://127.0.0.1:9/v1" } });
    try {
      const prompt = "Opening hours please";
      mock.addFixture({
        match: { userMessage: prompt, hasToolResult: false },
        response: { toolCalls: [{ name: "knowledge_search", arguments: JSON.stringify({ query: "office opens weekdays" }), id: "call_hours" }] },
      });
      mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: "Nine to five [1]." } });
      const chat = await chatWith(member, { bases: [baseId], automatic: false });
      const answer = await turn(member, chat.id, prompt);
      const output = answer.blocks.find((b) => b.kind === "tool")!.output as { degraded?: string; passages: { page: number }[] };
      expect(output.degraded).toMatch(/^Searched by words only: Could not reach the embedding model text-embedding-test/);
      expect(output.passages[0].page).toBe(1);
      expect(JSON.stringify(requestsFor(prompt).at(-1)!.body)).toContain("Searched by words only");
    } finally {
      await prisma.provider.update({ where: { id: embeddingsProviderId }, data: { baseUrl: `${mock.url}/v1` } });
    }
  });

  it("the team's policy: ask makes a search wait for the member's approval (a chat set to search by itself too); deny turns knowledge off", async () => {
    await setKnowledgeSearchPolicy(admin, "ask");
    try {
      const prompt = "Ask first: what about expenses?";
      mock.addFixture({
        match: { userMessage: prompt, hasToolResult: false },
        response: { toolCalls: [{ name: "knowledge_search", arguments: JSON.stringify({ query: "expenses paid" }), id: "call_ask" }] },
      });
      mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: "Ten days [1]." } });
      const chat = await chatWith(admin, { bases: [baseId], automatic: true });
      const asked = storedTurn();
      const chunks = await readChunks(await runTurn(admin, { chatId: chat.id, text: prompt }, { onStored: asked.onStored }));
      await asked.promise;
      // Nothing was searched before the answer: the model got the tool, and its call waits.
      expect(toolsOffered(prompt)).toContain("knowledge_search");
      expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "approval-requested", approvalBy: "member" });
      const approvalId = String((chunks.find((c) => c.type === "tool-approval-request") as { approvalId?: string }).approvalId);
      const went = storedTurn();
      await (await runTurn(admin, { chatId: chat.id, decisions: [{ approvalId, approved: true }] }, { onStored: went.onStored })).text();
      await went.promise;
      const done = await storedAnswer(chat.id);
      expect(done.blocks.find((b) => b.kind === "tool")).toMatchObject({ status: "output-available" });
      const prisma = await db();
      expect(await prisma.citation.findFirstOrThrow({ where: { messageId: done.id, ordinal: 1 } })).toMatchObject({ origin: "knowledge", page: 3 });

      await setKnowledgeSearchPolicy(admin, "deny");
      const off = "Knowledge is off: opening hours?";
      mock.addFixture({ match: { userMessage: off }, response: { content: "I cannot look it up." } });
      const closed = await chatWith(admin, { bases: [baseId], automatic: false });
      const answer = await turn(admin, closed.id, off);
      expect(toolsOffered(off)).not.toContain("knowledge_search");
      expect(answer.blocks.find((b) => b.kind === "data")).toMatchObject({ data: { code: "KnowledgeOff" } });
    } finally {
      await setKnowledgeSearchPolicy(admin, "auto");
    }
  });
});
