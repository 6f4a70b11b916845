// The team events of calls waiting for an admin, as the outbox stores them for every notification
// channel (real database, real MCP server, scripted model): a member's admin-only call is announced
// with the tool, who asked, the chat and its arguments with credentials masked; and each way it ends
// is announced once: an admin's decision in the inbox, its time limit, a new message that supersedes
// it. A call the member decides themselves is no team event.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { closeAll } from "../mcp/pool";
import type { TeamContext } from "../teams/team-context";
import { DATABASES, runTurn, storedTurn, turnHarness } from "@/test/support/turn-harness";
import { readChunks } from "@/test/support/test-turns";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";
import { memberChatWithEcho } from "@/test/support/mcp-chats";
import { decideAsAdmin } from "./team-approvals";
import { expireApprovals } from "./approval-timeouts";
import { continueDecided } from "../turn/continue-decided";

let mock: LLMock;
let server: RunningServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await closeAll();
  await server?.stop();
});

describe.each(DATABASES)("approval events on $name", (driver) => {
  turnHarness((m) => (mock = m), { driver });

  const teamWithEcho = (policy: "admin" | "ask", decisionTimeoutMin?: number) =>
    memberChatWithEcho(mock.url, server.url, { policy, decisionTimeoutMin, title: "Deploys" });

  async function ask(s: { member: TeamContext; chat: { id: string } }, word: string, message: string) {
    mock.addFixture({
      match: { userMessage: word, hasToolResult: false },
      response: { toolCalls: [{ name: "Test__echo", arguments: JSON.stringify({ message }), id: `call_${word}` }] },
    });
    mock.addFixture({ match: { userMessage: word, hasToolResult: true }, response: { content: `Done: ${word}.` } });
    const done = storedTurn();
    const chunks = await readChunks(await runTurn(s.member, { chatId: s.chat.id, text: `please ${word}` }, { onStored: done.onStored }));
    await done.promise;
    return String(chunks.find((c) => c.type === "tool-approval-request")?.approvalId);
  }

  async function events(teamId: string) {
    const rows = await (await db()).teamEvent.findMany({ where: { teamId }, orderBy: { seq: "asc" } });
    return rows.map((r) => r.data as Record<string, unknown>);
  }

  it("announces a call waiting for an admin, with credentials masked, and the admin's decision once", async () => {
    const s = await teamWithEcho("admin");
    const approvalId = await ask(s, "deploy", "Bearer abcdefghijklmnopqrstuvwxyz");
    const [requested] = await events(s.admin.team.id);
    expect(requested).toMatchObject({
      kind: "approval.requested",
      approvalId,
      chatId: s.chat.id,
      chatTitle: "Deploys",
      member: { name: "Maria Member" },
      tool: { label: "Test · echo", serverId: s.serverId, serverName: "Test", toolName: "echo" },
      input: { message: "••••" },
    });
    const { done } = await decideAsAdmin(s.admin, { approvalId, approved: false, reason: "not today" }, { continueAnswer: continueDecided });
    await done;
    const after = await events(s.admin.team.id);
    expect(after.map((e) => e.kind)).toEqual(["approval.requested", "approval.decided"]);
    expect(after[1]).toMatchObject({ approvalId, outcome: "denied", via: "inbox", reason: "not today", by: { id: s.admin.user.id } });
  });

  it("announces a call its time limit denied", async () => {
    const s = await teamWithEcho("admin", 5);
    const approvalId = await ask(s, "restart", "now");
    const block = await (await db()).block.findFirstOrThrow({ where: { approvalId } });
    const { continued } = await expireApprovals(new Date(block.approvalDeadline!.getTime() + 1000), async () => true);
    await Promise.all(continued);
    expect((await events(s.admin.team.id)).at(-1)).toMatchObject({ kind: "approval.decided", approvalId, outcome: "expired", via: "timeout", by: null });
  });

  it("announces a call a new message superseded", async () => {
    const s = await teamWithEcho("admin");
    const approvalId = await ask(s, "migrate", "db");
    mock.addFixture({ match: { userMessage: "never mind" }, response: { content: "OK." } });
    const done = storedTurn();
    await readChunks(await runTurn(s.member, { chatId: s.chat.id, text: "never mind" }, { onStored: done.onStored }));
    await done.promise;
    expect((await events(s.admin.team.id)).at(-1)).toMatchObject({ kind: "approval.decided", approvalId, outcome: "superseded", by: { id: s.member.user.id } });
  });

  it("has no team event for a call the member decides", async () => {
    const s = await teamWithEcho("ask");
    await ask(s, "lookup", "x");
    expect(await events(s.admin.team.id)).toEqual([]);
  });
});
