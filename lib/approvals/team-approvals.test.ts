// Approvals that involve the team, on a real database, a real MCP server (e2e/mcp-test-server.mjs's
// echo) and a scripted model: a call of a tool whose policy is "an admin approves" waits for an admin
// (never the member, in a turn or through the decisions route); the inbox shows it with the chat
// around it; an admin's decision continues the member's answer; two admins at once: one wins; an
// edited input that does not fit the schema is refused and nothing runs, one that fits runs as edited
// and the model is told; a rule on arguments escalates one call and lets another run; a time limit
// denies a call while nobody has the chat open and the model learns it; a restart changes nothing. A
// rule that runs a call without asking, and the rule that escalated a call a time limit denied, are
// named on the card (the stored part) and in the audit log.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { closeAll } from "../mcp/pool";
import { ready, shutdown } from "../startup";
import type { TeamContext } from "../teams/team-context";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { rejection, teamMember } from "@/test/support/test-app";
import { readChunks, storedAnswer, type SseChunk } from "@/test/support/test-turns";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";
import { memberChatWithEcho } from "@/test/support/mcp-chats";
import { adminInbox, countPendingApprovals, decideAsAdmin } from "./team-approvals";
import { expireApprovals } from "./approval-timeouts";
import { loadMessagePage } from "../chat/history";
import { continueDecided, decideWhileWaiting } from "../turn/continue-decided";

let mock: LLMock;
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await closeAll();
  await server?.stop();
});

describe.each(DATABASES)("on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  /** A team with an admin, a second admin and a member whose chat uses the test server's echo tool. */
  async function teamWithEcho(policy: { policy?: "admin" | "ask" | "auto"; rules?: unknown; decisionTimeoutMin?: number }) {
    const setup = await memberChatWithEcho(mock.url, server.url, policy);
    const admin2 = await teamMember(setup.member.team.id, "Second Admin", "admin");
    return { ...setup, admin2: { ...setup.admin, user: admin2.user } };
  }

  /** The member asks `word`; the model calls echo with `message`, then answers from the result. */
  async function ask(s: { member: TeamContext; chat: { id: string } }, word: string, message: string) {
    mock.addFixture({
      match: { userMessage: word, hasToolResult: false },
      response: { toolCalls: [{ name: "Test__echo", arguments: JSON.stringify({ message }), id: `call_${word}` }] },
    });
    mock.addFixture({ match: { userMessage: word, hasToolResult: true, toolResultContains: "[ERROR:Denied]" }, response: { content: `Not run: ${word}.` } });
    mock.addFixture({ match: { userMessage: word, hasToolResult: true }, response: { content: `Ran for ${word}.` } });
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(s.member, { chatId: s.chat.id, text: `please ${word}` }, { onStored: done.onStored }));
    await done.promise;
    return chunks;
  }

  const approvalOf = (chunks: SseChunk[]) => ({ approvalId: String(chunks.find((c) => c.type === "tool-approval-request")?.approvalId) });
  const toolBlock = async (chatId: string) => (await storedAnswer(chatId)).blocks.find((b) => b.kind === "tool")!;
  const lastRequest = (word: string) =>
    JSON.stringify(
      mock
        .getRequests()
        .filter((r) => JSON.stringify(r.body).includes(word))
        .at(-1)?.body,
    );
  const textAfter = async (chatId: string) =>
    (await storedAnswer(chatId)).blocks
      .filter((b) => b.kind === "text")
      .map((b) => b.text)
      .join("");

  it("an admin-only call waits for an admin: the member cannot decide it, the inbox shows it, an admin's approval continues the answer", async () => {
    const s = await teamWithEcho({ policy: "admin" });
    const chunks = await ask(s, "alpha", "hello");
    const request = approvalOf(chunks);
    const block = await toolBlock(s.chat.id);
    expect(block).toMatchObject({ status: "approval-requested", approvalBy: "admin", input: { message: "hello" } });
    // The member, in a turn and through the decisions route: refused, nothing stored, nothing runs.
    const inTurn = await rejection(runTurn(s.member, { chatId: s.chat.id, decisions: [{ approvalId: request.approvalId, approved: true }] }));
    expect(inTurn.status).toBe(403);
    expect((await rejection(decideWhileWaiting(s.member, s.chat.id, [{ approvalId: request.approvalId, approved: true }]))).status).toBe(403);
    expect((await rejection(decideAsAdmin(s.member, { approvalId: request.approvalId, approved: true }, { continueAnswer: continueDecided }))).status).toBe(
      403,
    );
    expect(await toolBlock(s.chat.id)).toMatchObject({ status: "approval-requested", decidedById: null });
    // The inbox: the member, the question, the input; and the count.
    const inbox = await adminInbox(s.admin);
    expect(inbox).toEqual([
      expect.objectContaining({
        approvalId: request.approvalId,
        member: "Maria Member",
        question: "please alpha",
        input: { message: "hello" },
        chatId: s.chat.id,
      }),
    ]);
    expect(await countPendingApprovals(s.admin.team.id)).toBe(1);
    const decided = await decideAsAdmin(s.admin, { approvalId: request.approvalId, approved: true }, { continueAnswer: continueDecided });
    expect(decided.continues).toBe(true);
    expect(await decided.done).toBe(true);
    const after = await toolBlock(s.chat.id);
    expect(after).toMatchObject({ status: "output-available", approved: true, decidedById: s.admin.user.id });
    expect(JSON.stringify(after.output)).toContain("Echo: hello");
    expect(await textAfter(s.chat.id)).toBe("Ran for alpha.");
    expect(await countPendingApprovals(s.admin.team.id)).toBe(0);
    const events = await (await db()).auditEvent.findMany({ where: { teamId: s.admin.team.id, action: "tool.approve" } });
    expect(events).toEqual([expect.objectContaining({ actorId: s.admin.user.id, data: expect.objectContaining({ by: "admin", tool: "Test__echo" }) })]);
  });

  it("two admins deciding at once: one wins, the other is told it was decided; the call runs once", async () => {
    const s = await teamWithEcho({ policy: "admin" });
    const chunks = await ask(s, "bravo", "once");
    const { approvalId } = approvalOf(chunks);
    const results = await Promise.allSettled([
      decideAsAdmin(s.admin, { approvalId, approved: true }, { continueAnswer: continueDecided }),
      decideAsAdmin(s.admin2, { approvalId, approved: false, reason: "no" }, { continueAnswer: continueDecided }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toMatchObject({ status: 409 });
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof decideAsAdmin>>>).value.done;
    const toolResults = mock.getRequests().filter((r) => JSON.stringify(r.body).includes("please bravo") && JSON.stringify(r.body).includes('"role":"tool"'));
    expect(toolResults).toHaveLength(1);
    const decisions = await (await db()).auditEvent.count({ where: { teamId: s.admin.team.id, action: { in: ["tool.approve", "tool.deny"] } } });
    expect(decisions).toBe(1);
  });

  it("edit and approve: an input that does not fit the schema is refused and nothing runs; one that fits runs as edited, stored beside the original, and the model is told", async () => {
    const s = await teamWithEcho({ policy: "admin" });
    const chunks = await ask(s, "charlie", "rm -rf /");
    const { approvalId } = approvalOf(chunks);
    const bad = await rejection(decideAsAdmin(s.admin, { approvalId, approved: true, input: { message: 42 } }, { continueAnswer: continueDecided }));
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/does not fit/);
    expect(await toolBlock(s.chat.id)).toMatchObject({ status: "approval-requested", input: { message: "rm -rf /" } });
    const decided = await decideAsAdmin(s.admin, { approvalId, approved: true, input: { message: "ls" } }, { continueAnswer: continueDecided });
    await decided.done;
    const block = await toolBlock(s.chat.id);
    expect(block).toMatchObject({ status: "output-available", input: { message: "ls" }, originalInput: { message: "rm -rf /" } });
    expect(JSON.stringify(block.output)).toContain("Echo: ls");
    expect(JSON.stringify(block.output)).not.toContain("rm -rf");
    expect(lastRequest("please charlie")).toContain("a person changed the arguments");
    const edit = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.admin.team.id, action: "tool.edit" } });
    expect(edit.data).toMatchObject({ original: { message: "rm -rf /" }, edited: { message: "ls" } });
  });

  it("a rule on the arguments escalates one call to an admin (the card and the audit name it) and lets another run", async () => {
    const s = await teamWithEcho({ policy: "auto", rules: [{ field: "message", op: "matches", value: "^secret", then: "admin" }] });
    await ask(s, "delta", "just text");
    expect(await toolBlock(s.chat.id)).toMatchObject({ status: "output-available", approvalBy: null });
    const chunks = await ask(s, "echo", "secret plans");
    const { approvalId } = approvalOf(chunks);
    expect(await toolBlock(s.chat.id)).toMatchObject({
      status: "approval-requested",
      approvalBy: "admin",
      approvalRule: "message matches /^secret/ → an admin approves",
    });
    await (
      await decideAsAdmin(s.admin, { approvalId, approved: false, reason: "not today" }, { continueAnswer: continueDecided })
    ).done;
    expect(await textAfter(s.chat.id)).toBe("Not run: echo.");
    const deny = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.admin.team.id, action: "tool.deny" } });
    expect(deny.data).toMatchObject({ rule: "message matches /^secret/ → an admin approves", reason: "not today" });
  });

  it("a time limit denies a call while nobody has the chat open; the model learns it; audited", async () => {
    const s = await teamWithEcho({ policy: "admin", decisionTimeoutMin: 30 });
    await ask(s, "foxtrot", "later");
    const block = await toolBlock(s.chat.id);
    expect(block.approvalDeadline!.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    const { continued } = await expireApprovals(new Date(block.approvalDeadline!.getTime() + 1000), continueDecided);
    await Promise.all(continued);
    expect(await toolBlock(s.chat.id)).toMatchObject({
      status: "output-denied",
      approved: false,
      decisionReason: "no decision within 30 minutes",
      decidedById: null,
    });
    expect(await textAfter(s.chat.id)).toBe("Not run: foxtrot.");
    expect(lastRequest("please foxtrot")).toContain("Nobody decided in time: no decision within 30 minutes");
    const deny = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.admin.team.id, action: "tool.deny" } });
    expect(deny).toMatchObject({ actorId: null, data: expect.objectContaining({ timedOut: true, reason: "no decision within 30 minutes" }) });
  });

  const storedPart = async (chatId: string) => (await loadMessagePage(chatId)).messages.at(-1)!.parts.find((p) => "toolCallId" in p) as Record<string, unknown>;

  it("a rule that runs a call without asking is named on the card and in the audit log", async () => {
    const s = await teamWithEcho({ policy: "ask", rules: [{ field: "message", op: "matches", value: "^fine", then: "auto" }] });
    await ask(s, "hotel", "fine to run");
    const rule = "message matches /^fine/ → run without asking";
    expect(await toolBlock(s.chat.id)).toMatchObject({ status: "output-available", approvalBy: "auto", approvalRule: rule });
    expect(await storedPart(s.chat.id)).toMatchObject({ state: "output-available", autoRule: rule });
    const events = await (await db()).auditEvent.findMany({ where: { teamId: s.member.team.id, action: "tool.auto" } });
    expect(events).toEqual([
      expect.objectContaining({ actorId: s.member.user.id, data: expect.objectContaining({ chatId: s.chat.id, rule, tool: "Test__echo" }) }),
    ]);
  });

  it("a time limit that denies an escalated call names the rule that escalated it, on the card and in the audit log", async () => {
    const s = await teamWithEcho({ policy: "auto", rules: [{ field: "message", op: "matches", value: "^secret", then: "admin" }], decisionTimeoutMin: 30 });
    await ask(s, "india", "secret stuff");
    const block = await toolBlock(s.chat.id);
    const { continued } = await expireApprovals(new Date(block.approvalDeadline!.getTime() + 1000), continueDecided);
    await Promise.all(continued);
    const rule = "message matches /^secret/ → an admin approves";
    expect(await storedPart(s.chat.id)).toMatchObject({ state: "output-denied", approval: { approved: false, reason: "no decision within 30 minutes", rule } });
    const deny = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: s.admin.team.id, action: "tool.deny" } });
    expect(deny.data).toMatchObject({ timedOut: true, rule });
  });

  it("a restart while an admin-only call waits changes nothing: it still waits, and an admin's approval continues it", async () => {
    const s = await teamWithEcho({ policy: "admin" });
    const chunks = await ask(s, "golf", "after restart");
    const { approvalId } = approvalOf(chunks);
    await shutdown();
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("parley.streamRegistry")];
    await ready();
    expect((await adminInbox(s.admin)).map((i) => i.approvalId)).toEqual([approvalId]);
    await (
      await decideAsAdmin(s.admin, { approvalId, approved: true }, { continueAnswer: continueDecided })
    ).done;
    expect(await textAfter(s.chat.id)).toBe("Ran for golf.");
  });
});
