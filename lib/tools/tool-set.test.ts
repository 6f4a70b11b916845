// MCP tools in turns, end to end below the browser: runTurn against the scripted upstream (aimock)
// and real MCP servers on loopback. The model calls namespaced tools that map back to the right
// server; failures come back as coded errors; a dead or stuck server never breaks or stalls a turn.
import type { LLMock } from "@copilotkit/aimock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { runTurn, storedTurn } from "@/test/support/turn-harness";
import { readChunks, startUpstream, storedAnswer, teamWithProvider, textOf, type SseChunk } from "@/test/support/test-turns";
import { closeAll, poolStats, setBackoff, status } from "../mcp/pool";
import { probeServer } from "../mcp/probe";
import { freePort, startEverything, startTestServer, type RunningServer } from "../../test/support/test-servers";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, startTestApp } from "../../test/support/test-app";

let mock: LLMock;
let stop: () => Promise<void>;
let everything: RunningServer;
let testServer: RunningServer;

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  [mock, everything, testServer] = await Promise.all([startUpstream(), startEverything(), startTestServer()]);
  setBackoff(100, 500);
});
afterAll(async () => {
  await closeAll();
  await Promise.all([mock?.stop(), everything?.stop(), testServer?.stop()]);
  await stop?.();
});

const stored = storedTurn;

async function addServer(ctx: TeamContext, name: string, url: string, over: { connectTimeoutMs?: number; callTimeoutMs?: number } = {}) {
  const prisma = await db();
  // These tests are about MCP calls, not approval: the server's tools run without asking.
  const server = await prisma.mcpServer.create({ data: { teamId: ctx.team.id, name, transport: "http", url, defaultPolicy: "auto", ...over } });
  const probe = await probeServer(ctx, server.id);
  const tools = await prisma.mcpTool.findMany({ where: { serverId: server.id } });
  return { server, tools, probe };
}

async function select(chatId: string, servers: { server: { id: string }; tools: { id: string; name: string }[] }[], names?: string[]) {
  const prisma = await db();
  await prisma.chat.update({
    where: { id: chatId },
    data: {
      toolSelection: {
        servers: servers.map((s) => s.server.id),
        tools: servers.flatMap((s) => s.tools.filter((t) => !names || names.includes(t.name)).map((t) => t.id)),
      },
    },
  });
}

/** Scripts the upstream: first a call of `tool` with `args`, then an answer once a tool result is there. */
function scriptToolCall(prompt: string, tool: string, args: unknown, answer = "Done.") {
  mock.addFixture({
    match: { userMessage: prompt, hasToolResult: false },
    response: { toolCalls: [{ name: tool, arguments: JSON.stringify(args), id: `call_${tool}` }] },
  });
  mock.addFixture({ match: { userMessage: prompt, hasToolResult: true }, response: { content: answer } });
}

const requestsFor = (prompt: string) => mock.getRequests().filter((r) => JSON.stringify(r.body).includes(prompt));
const offeredTools = (prompt: string) =>
  ((requestsFor(prompt)[0]?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name).sort();
const notices = (chunks: SseChunk[]) => chunks.filter((c) => c.type === "data-notice").map((c) => c.data as { code: string; message: string });

describe("MCP tools in a turn", () => {
  it("the model calls a namespaced tool; the call reaches the right server and the result comes back", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const everythingRow = await addServer(ctx, "everything", everything.url);
    await select(chat.id, [everythingRow], ["echo", "get-sum"]);
    scriptToolCall("echo this please", "everything__echo", { message: "hello from parley" }, "The server echoed it.");
    const done = stored();
    const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "echo this please" }, { onStored: done.onStored }));
    expect(textOf(chunks)).toBe("The server echoed it.");
    expect(offeredTools("echo this please")).toEqual(["everything__echo", "everything__get-sum"]);
    await done.promise;
    const tool = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")!;
    expect(tool).toMatchObject({ toolName: "everything__echo", status: "output-available", input: { message: "hello from parley" } });
    expect(tool.output).toMatchObject({ content: [{ type: "text", text: "Echo: hello from parley" }] });
    expect(tool.extras).toMatchObject({ toolMetadata: { source: "mcp", serverName: "everything", toolName: "echo" } });
    // The model received the result as text.
    expect(JSON.stringify(requestsFor("echo this please").at(-1)?.body)).toContain("Echo: hello from parley");
  });

  it("reuses one connection per server across turns and users", async () => {
    const a = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(a.ctx, "everything", everything.url);
    const before = poolStats().connects;
    for (let i = 0; i < 3; i++) {
      const chat = await (await db()).chat.create({ data: { teamId: a.ctx.team.id, userId: a.ctx.user.id } });
      await select(chat.id, [row], ["echo"]);
      scriptToolCall(`reuse ${i}`, "everything__echo", { message: `n${i}` });
      const done = stored();
      await readChunks(await runTurn(a.ctx, { chatId: chat.id, text: `reuse ${i}` }, { onStored: done.onStored }));
      expect((await done.promise).status).toBe("done");
    }
    expect(poolStats().connects - before).toBe(0); // the probe made the session; turns reused it
  });

  it("a dead server and a stuck server leave the turn with notices, without delaying it past their connect timeout", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const live = await addServer(ctx, "live", testServer.url);
    const deadPort = await freePort();
    const dead = await addServer(ctx, "dead", `http://127.0.0.1:${deadPort}/mcp`, { connectTimeoutMs: 1000 });
    const stuckServer = await startTestServer({ hang: true });
    const stuck = await addServer(ctx, "stuck", stuckServer.url, { connectTimeoutMs: 700 });
    // The dead and stuck servers have no tool rows (their probe failed): give each one, as if listed before.
    const prisma = await db();
    for (const s of [dead, stuck]) s.tools = [await prisma.mcpTool.create({ data: { serverId: s.server.id, name: "echo" } })];
    await select(chat.id, [live, dead, stuck], ["echo"]);
    mock.onMessage("tools down", { content: "Answered anyway." });
    const done = stored();
    const res = await runTurn(ctx, { chatId: chat.id, text: "tools down" }, { onStored: done.onStored });
    const chunks = await readChunks(res);
    await stuckServer.stop();
    // The stuck server never answers: the turn went on because its connect timeout (0.7 s) ended the wait.
    expect(textOf(chunks)).toBe("Answered anyway.");
    const n = notices(chunks);
    expect(n.map((x) => x.code)).toEqual(["ToolsUnavailable", "ToolsUnavailable"]);
    expect(n.find((x) => x.message.includes('"dead"'))?.message).toMatch(/Unreachable|next attempt/);
    expect(n.find((x) => x.message.includes('"stuck"'))?.message).toMatch(/connect timeout \(0\.7 s\)|next attempt/);
    expect(offeredTools("tools down")).toEqual(["live__echo"]);
    expect((await done.promise).status).toBe("done");
    const blocks = (await storedAnswer(chat.id)).blocks;
    expect(blocks.filter((b) => b.kind === "data" && b.name === "notice")).toHaveLength(2);
  });

  it("failures reach the model as coded errors: Timeout, ToolFailed, InvalidArgs", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(ctx, "t", testServer.url, { callTimeoutMs: 600 });
    await select(chat.id, [row]);
    const cases = [
      { prompt: "hang forever", tool: "t__hang", args: {}, code: "Timeout", text: /within 0\.6 s/ },
      { prompt: "fail please", tool: "t__fail", args: {}, code: "ToolFailed", text: /out of stock/ },
      { prompt: "bad args", tool: "t__echo", args: { wrong: 1 }, code: "InvalidArgs", text: /message/ },
    ];
    for (const c of cases) {
      scriptToolCall(c.prompt, c.tool, c.args, `Saw the ${c.code}.`);
      const done = stored();
      const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: c.prompt }, { onStored: done.onStored }));
      const err = chunks.find((x) => x.type === "tool-output-error") as { errorText: string } | undefined;
      expect(err?.errorText.startsWith(`[ERROR:${c.code}] `)).toBe(true);
      expect(err?.errorText).toMatch(c.text);
      expect(textOf(chunks)).toBe(`Saw the ${c.code}.`);
      expect(JSON.stringify(requestsFor(c.prompt).at(-1)?.body)).toContain(`[ERROR:${c.code}]`);
      await done.promise;
      const tool = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")!;
      expect(tool).toMatchObject({ status: "output-error", errorCode: c.code, toolSource: "mcp" });
      expect(tool.errorText).toContain(`[ERROR:${c.code}]`);
    }
  });

  it("Stop ends a turn waiting on a hanging tool at once, and the server stays usable", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(ctx, "t", testServer.url); // call timeout: the default 60 s
    await select(chat.id, [row], ["hang", "echo"]);
    scriptToolCall("wait forever", "t__hang", {});
    const done = stored();
    const res = await runTurn(ctx, { chatId: chat.id, text: "wait forever" }, { onStored: done.onStored });
    const reading = readChunks(res);
    await expect.poll(async () => (await storedAnswer(chat.id)).blocks.some((b) => b.kind === "tool"), { timeout: 5000 }).toBe(true);
    const { stopTurn } = await import("../turn/turn-follow");
    await stopTurn(ctx, chat.id);
    // The tool hangs and its call timeout is 60 s, twice the test's: only Stop can end the turn in time.
    const chunks = await reading;
    expect(chunks.find((c) => c.type === "data-notice")).toMatchObject({ data: { code: "Stopped" } });
    expect((await done.promise).status).toBe("stopped");
    // The pooled session was not torn down by the cancelled call.
    scriptToolCall("after the stop", "t__echo", { message: "still works" }, "Fine.");
    const next = stored();
    const again = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "after the stop" }, { onStored: next.onStored }));
    expect(textOf(again)).toBe("Fine.");
  });

  it("a Streamable HTTP server whose process dies mid-call: the call ends at once as ServerUnavailable, the model is told, the server shows failed", async () => {
    const doomed = await startTestServer();
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(ctx, "doomed", doomed.url, { callTimeoutMs: 20_000 });
    await select(chat.id, [row], ["crash"]);
    scriptToolCall("crash the server now", "doomed__crash", {}, "The server went away.");
    const done = stored();
    const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "crash the server now" }, { onStored: done.onStored }));
    await doomed.stop();
    const err = chunks.find((x) => x.type === "tool-output-error") as { errorText: string } | undefined;
    expect(err?.errorText).toMatch(/^\[ERROR:ServerUnavailable\] Unreachable: /);
    expect(textOf(chunks)).toBe("The server went away.");
    expect(JSON.stringify(requestsFor("crash the server now").at(-1)?.body)).toContain("[ERROR:ServerUnavailable]");
    await done.promise;
    expect((await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")).toMatchObject({
      status: "output-error",
      errorCode: "ServerUnavailable",
      toolSource: "mcp",
    });
    expect(status(row.server.id)).toMatchObject({ state: "error", error: { kind: "unreachable" } });
  });

  it("streams progress while a long tool runs, then the result", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(ctx, "t", testServer.url);
    await select(chat.id, [row], ["slow_progress"]);
    scriptToolCall("go slowly", "t__slow_progress", { steps: 4, stepMs: 150 });
    const done = stored();
    const chunks = await readChunks(await runTurn(ctx, { chatId: chat.id, text: "go slowly" }, { onStored: done.onStored }));
    const outputs = chunks.filter((c) => c.type === "tool-output-available") as unknown as {
      preliminary?: boolean;
      output: { running?: boolean; progress?: { progress: number; total: number } };
    }[];
    const progress = outputs.filter((o) => o.preliminary && o.output.running).map((o) => o.output.progress?.progress);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(outputs.at(-1)).toMatchObject({ output: { content: [{ text: "Finished 4 steps." }] } });
    expect(outputs.at(-1)?.preliminary).toBeFalsy();
    await done.promise;
    const tool = (await storedAnswer(chat.id)).blocks.find((b) => b.kind === "tool")!;
    expect(tool.output).toMatchObject({ content: [{ text: "Finished 4 steps." }] });
    expect((tool.extras as { preliminary?: boolean } | null)?.preliminary).toBeFalsy();
  });

  it("URLs in results become citations of the answer", async () => {
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    const row = await addServer(ctx, "t", testServer.url);
    await select(chat.id, [row], ["search"]);
    scriptToolCall("search the web", "t__search", { q: "otters" }, "Otters are great [1].");
    const done = stored();
    await readChunks(await runTurn(ctx, { chatId: chat.id, text: "search the web" }, { onStored: done.onStored }));
    const { messageId } = await done.promise;
    const cites = await (await db()).citation.findMany({ where: { messageId }, orderBy: { ordinal: "asc" } });
    expect(cites.map((c) => [c.ordinal, c.url, c.title, c.origin])).toEqual([
      [1, "https://example.com/otters", "About otters", "mcp"],
      [2, "https://example.org/second", "Second source", "mcp"],
    ]);
  });

  it("a selection naming another team's server offers nothing from it", async () => {
    const other = await teamWithProvider(mock.url, "openai_chat");
    const theirs = await addServer(other.ctx, "theirs", testServer.url);
    const { ctx, chat } = await teamWithProvider(mock.url, "openai_chat");
    await select(chat.id, [theirs]); // forged straight into the database
    mock.onMessage("forged selection", { content: "No tools here." });
    const done = stored();
    await readChunks(await runTurn(ctx, { chatId: chat.id, text: "forged selection" }, { onStored: done.onStored }));
    await done.promise;
    expect(offeredTools("forged selection")).toEqual([]);
  });
});
