// MCP Apps, the server half, against a real turn (scripted upstream) and our test MCP server on
// loopback: a tool's ui:// view is recorded with its call, served to members who can see the chat with
// the sandbox policy, refused (404) to anyone else and for forged ids, and a clear 4xx when the view is
// not a page, too large, or not ui://. App-only tools are not offered to the model. A view's tool calls
// run for the chat's owner only, under their approval policy (one that asks waits for their yes), and
// are audited.
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { appErrorPage, appPageHeaders } from "../mcp/app-page";
import type { TeamContext } from "../teams/team-context";
import { assembleTools } from "../tools/tool-set";
import { rejection, teamMember } from "@/test/support/test-app";
import { chatWithServerTools, mcpChatStack } from "@/test/support/mcp-chats";
import { readChunks, storedAnswer } from "@/test/support/test-turns";
import { runTurn, storedTurn } from "@/test/support/turn-harness";
import { appToolCall } from "./mcp-app-calls";
import { appPage } from "./mcp-apps";

const stack = mcpChatStack();
const chatWithTools = (policy: "auto" | "ask" = "auto") => chatWithServerTools(stack, { policy });

let n = 0;
/** Runs a turn in which the model calls `tool`; resolves with the call's id once the turn is stored. */
async function callTool(ctx: TeamContext, chatId: string, tool: string, args: unknown = {}): Promise<string> {
  const prompt = `apps test ${++n} ${tool}`;
  const id = `call_apps_${n}`;
  stack.mock.addFixture({
    match: { userMessage: prompt, hasToolResult: false },
    response: { toolCalls: [{ name: tool, arguments: JSON.stringify(args), id }] },
  });
  stack.mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: `Done ${n}.` } });
  const done = storedTurn();
  await readChunks(await runTurn(ctx, { chatId, text: prompt }, { onStored: done.onStored }));
  await done.promise;
  return id;
}

describe("MCP Apps views", () => {
  it("records a tool's ui:// view with its call and serves it to the chat's owner with the sandbox policy", async () => {
    const { ctx, chat } = await chatWithTools();
    const id = await callTool(ctx, chat.id, "t__show_card", { text: "hello" });
    const block = (await storedAnswer(chat.id)).blocks.find((b) => b.toolCallId === id)!;
    expect(block.status).toBe("output-available");
    expect(JSON.stringify(block.extras)).toContain('"appUri":"ui://parley-test/card.html"');

    const page = await appPage(ctx, chat.id, id);
    expect(page.html).toContain("Test card");
    expect(page.csp).toContain("sandbox allow-scripts");
    expect(page.csp).toContain("frame-ancestors 'self'");
    expect(page.csp).toContain("default-src 'none'");
    // The resource's declared origins are honoured when they are https origins; the rest is dropped.
    expect(page.csp).toContain("connect-src https://api.example.com");
    expect(page.csp).toContain("script-src 'unsafe-inline' https://cdn.example.com;");
    expect(page.csp).not.toContain("javascript:");
    expect(page.csp).not.toMatch(/ \*( |;)/);
    const headers = appPageHeaders(page.csp);
    expect(headers["content-security-policy"]).toBe(page.csp);
    expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain("x-frame-options");
  });

  it("is 404 for a member who cannot see the chat, another team, and forged ids", async () => {
    const { ctx, chat } = await chatWithTools();
    const id = await callTool(ctx, chat.id, "t__show_card", { text: "secret" });
    const sameTeam = await teamMember(ctx.team.id, "nosy");
    expect((await rejection(appPage(sameTeam, chat.id, id))).status).toBe(404);
    const other = await chatWithTools();
    expect((await rejection(appPage(other.ctx, chat.id, id))).status).toBe(404);
    // The other team's own chat, with this call's id: nothing of this chat is reachable through it.
    expect((await rejection(appPage(other.ctx, other.chat.id, id))).status).toBe(404);
    expect((await rejection(appPage(ctx, chat.id, "call_forged"))).status).toBe(404);
    expect((await rejection(appPage(ctx, "c0000000000000000000000000", id))).status).toBe(404);
    // A member the chat is shared with sees the view (read only).
    const prisma = await db();
    await prisma.chatShare.create({ data: { chatId: chat.id, userId: sameTeam.user.id, createdById: ctx.user.id } });
    expect((await appPage(sameTeam, chat.id, id)).html).toContain("Test card");
    // A call without a view, and a server the admin turned off.
    const plain = await callTool(ctx, chat.id, "t__echo", { message: "hi" });
    expect(await rejection(appPage(ctx, chat.id, plain))).toMatchObject({ status: 404, message: "This tool call has no app." });
    await prisma.mcpServer.updateMany({ where: { teamId: ctx.team.id }, data: { enabled: false } });
    expect((await rejection(appPage(ctx, chat.id, id))).status).toBe(404);
  });

  it("a view that is not a page, too large, or not ui:// is a clear 4xx", async () => {
    const { ctx, chat } = await chatWithTools();
    const notHtml = await callTool(ctx, chat.id, "t__app_not_html");
    expect(await rejection(appPage(ctx, chat.id, notHtml))).toMatchObject({ status: 422, code: "NotAnApp", message: expect.stringContaining("text/plain") });
    const huge = await callTool(ctx, chat.id, "t__app_huge");
    expect(await rejection(appPage(ctx, chat.id, huge))).toMatchObject({ status: 422, code: "AppTooLarge", message: expect.stringContaining("2,000,") });
    const notUi = await callTool(ctx, chat.id, "t__app_not_ui");
    expect((await rejection(appPage(ctx, chat.id, notUi))).status).toBe(404);
    const refusal = appErrorPage(422, "NotAnApp", "Not <b>a</b> page");
    expect(refusal.status).toBe(422);
    expect(refusal.headers.get("content-security-policy")).toContain("sandbox allow-scripts");
    const html = await refusal.text();
    expect(html).toContain("Not &#60;b&#62;a&#60;/b&#62; page");
    expect(html).toContain('"type":"parley/app-error"');
  });

  it("an app-only tool is not offered to the model", async () => {
    const { ctx, selection } = await chatWithTools();
    const { tools } = await assembleTools({ teamId: ctx.team.id, userId: ctx.user.id, selection });
    expect(Object.keys(tools)).toContain("t__show_card");
    expect(Object.keys(tools)).not.toContain("t__card_stamp");
  });
});

describe("tool calls from a view", () => {
  it("run on the server for the chat's owner when the policy runs them without asking, and are audited", async () => {
    const { ctx, chat, serverId } = await chatWithTools("auto");
    const id = await callTool(ctx, chat.id, "t__show_card", { text: "x" });
    const result = await appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "from the app" } });
    expect(result.content).toEqual([{ type: "text", text: "Stamped: from the app" }]);
    const prisma = await db();
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "mcp.tool.call", targetId: serverId, actorId: ctx.user.id, data: { path: ["via"], equals: "app" } },
    });
    expect(event.data).toMatchObject({ tool: "card_stamp", appOf: id, chatId: chat.id });
    // Bad arguments are the view's error (400); a tool the server does not have is 404.
    expect((await rejection(appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: 5 } }))).status).toBe(400);
    expect((await rejection(appToolCall(ctx, chat.id, id, { name: "rm_rf", arguments: {} }))).status).toBe(404);
    // A member the chat is shared with (read only) cannot call through its view.
    const reader = await teamMember(ctx.team.id, "reader");
    await prisma.chatShare.create({ data: { chatId: chat.id, userId: reader.user.id, createdById: ctx.user.id } });
    expect((await rejection(appToolCall(reader, chat.id, id, { name: "card_stamp", arguments: { note: "x" } }))).status).toBe(403);
  });

  it("wait for the member's yes when the tool asks; are refused when an admin must approve, or the tool is denied", async () => {
    const { ctx, chat, serverId } = await chatWithTools("ask");
    const prisma = await db();
    // The card's own call runs first (without asking); then the server's policy becomes "ask".
    await prisma.mcpServer.update({ where: { id: serverId }, data: { defaultPolicy: "auto" } });
    const id = await callTool(ctx, chat.id, "t__show_card", { text: "x" });
    await prisma.mcpServer.update({ where: { id: serverId }, data: { defaultPolicy: "ask" } });
    // The member is asked first (409); nothing ran.
    expect(await rejection(appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "x" } }))).toMatchObject({
      status: 409,
      code: "ApprovalNeeded",
    });
    const audited = () => prisma.auditEvent.count({ where: { action: "mcp.tool.call", targetId: serverId, data: { path: ["tool"], equals: "card_stamp" } } });
    expect(await audited()).toBe(0);
    // Once they said yes, it runs, and the audit log says who approved it.
    const result = await appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "yes" }, approved: true });
    expect(result.content).toEqual([{ type: "text", text: "Stamped: yes" }]);
    const event = await prisma.auditEvent.findFirstOrThrow({
      where: { action: "mcp.tool.call", targetId: serverId, data: { path: ["tool"], equals: "card_stamp" } },
    });
    expect(event.data).toMatchObject({ via: "app", approvedBy: "member" });
    // A rule that sends the call to an admin: the member's yes does not lift it.
    const rules = [{ field: "note", op: "matches", value: "^secret", then: "admin", label: "Secret notes" }];
    await prisma.mcpTool.updateMany({ where: { serverId, name: "card_stamp" }, data: { rules } });
    const admin = await rejection(appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "secret plan" }, approved: true }));
    expect(admin).toMatchObject({ status: 403, code: "ApprovalRequired" });
    expect(admin.message).toContain("an admin's approval");
    await prisma.mcpTool.updateMany({ where: { serverId, name: "card_stamp" }, data: { policy: "deny" } });
    expect(await rejection(appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "x" }, approved: true }))).toMatchObject({
      status: 403,
      code: "Denied",
    });
    await prisma.mcpTool.updateMany({ where: { serverId, name: "card_stamp" }, data: { enabled: false } });
    expect((await rejection(appToolCall(ctx, chat.id, id, { name: "card_stamp", arguments: { note: "x" } }))).status).toBe(404);
  });
});
