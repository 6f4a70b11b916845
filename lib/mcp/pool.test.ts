// The client pool against real servers on loopback: server-everything over Streamable HTTP and stdio,
// and our failure-case server (hangs, crashes, list changes, progress).
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { acquire, callTool, closeAll, evict, listTools, poolStats, setBackoff, status } from "./pool";
import {
  EVERYTHING_BIN,
  freePort,
  httpConfig,
  startEverything,
  startEverythingSse,
  startTestServer,
  stdioConfig,
  TEST_SERVER_BIN,
  type RunningServer,
} from "../../test/support/test-servers";
import type { McpFailure } from "./failures";

let everything: RunningServer;
const started: RunningServer[] = [];

beforeAll(async () => {
  everything = await startEverything();
  setBackoff(200, 1000);
});
afterEach(async () => {
  delete process.env.PARLEY_ALLOW_STDIO_MCP;
});
afterAll(async () => {
  await closeAll();
  await everything?.stop();
  await Promise.all(started.map((s) => s.stop()));
});

async function failureOf(p: Promise<unknown>): Promise<McpFailure> {
  try {
    await p;
  } catch (err) {
    return err as McpFailure;
  }
  throw new Error("expected a failure");
}

describe("server-everything over Streamable HTTP", () => {
  it("connects once and reuses the session for many calls", async () => {
    const config = httpConfig(everything.url, { name: "everything" });
    const before = poolStats().connects;
    const tools = await listTools(config);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]));
    const echo = tools.find((t) => t.name === "echo")!;
    expect(echo.description).toBeTruthy();
    expect(echo.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(echo.annotations).toMatchObject({ readOnlyHint: true });
    for (let i = 0; i < 5; i++) {
      await acquire(config);
      const res = await callTool(config, "echo", { message: `turn ${i}` }, { timeoutMs: 5000 });
      expect(res.content[0]).toMatchObject({ type: "text", text: `Echo: turn ${i}` });
    }
    expect(poolStats().connects - before).toBe(1);
    expect(status(config.id).state).toBe("connected");
  });

  it("reports progress of a long-running tool as it happens", async () => {
    const config = httpConfig(everything.url);
    const seen: { progress: number; total?: number; at: number }[] = [];
    const t0 = Date.now();
    await callTool(
      config,
      "trigger-long-running-operation",
      { duration: 1, steps: 4 },
      { timeoutMs: 10_000, onProgress: (p) => seen.push({ ...p, at: Date.now() - t0 }) },
    );
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen.every((p) => p.total === 4)).toBe(true);
    expect(seen[3].at - seen[0].at).toBeGreaterThan(500); // spread over the run, not all at the end
  });
});

describe("server-everything over SSE (older servers)", () => {
  it("lists and calls tools over the SSE transport", async () => {
    const sse = await startEverythingSse();
    started.push(sse);
    const config = httpConfig(sse.url, { transport: "sse", headers: { Authorization: "Bearer sse-test" } });
    expect((await listTools(config)).map((t) => t.name)).toContain("echo");
    expect((await callTool(config, "echo", { message: "over sse" }, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "Echo: over sse" });
  });
});

describe("server-everything over stdio", () => {
  it("runs only when the operator allows stdio", async () => {
    const config = stdioConfig(process.execPath, [EVERYTHING_BIN, "stdio"]);
    const refused = await failureOf(acquire(config));
    expect(refused.kind).toBe("config");
    expect(refused.message).toContain("PARLEY_ALLOW_STDIO_MCP");
    await evict(config.id);
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    const tools = await listTools(config);
    expect(tools.map((t) => t.name)).toContain("echo");
    const res = await callTool(config, "get-sum", { a: 2, b: 3 }, { timeoutMs: 5000 });
    expect(JSON.stringify(res.content)).toContain("5");
    await evict(config.id);
  });

  it("a command that does not exist is an unreachable server, not a crash", async () => {
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    const config = stdioConfig("/nonexistent/parley-mcp-server", []);
    const f = await failureOf(acquire(config));
    expect(f.kind).toBe("unreachable");
    expect(status(config.id).state).toBe("error");
  });
});

describe("failures", () => {
  it("reconnects after the server restarts", async () => {
    const port = await freePort();
    let server = await startTestServer({ port });
    const config = httpConfig(server.url);
    const before = poolStats().connects;
    expect((await callTool(config, "echo", { message: "one" }, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "Echo: one" });
    await server.stop();
    server = await startTestServer({ port });
    started.push(server);
    // The old session is gone: either the pool noticed its stream break (the status says so, and turns
    // skip the server for this test's short backoff) or the next turn's ping finds it gone. Either way
    // a turn soon gets a new session, opened once.
    await expect
      .poll(
        () =>
          acquire(config).then(
            () => true,
            () => false,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    expect((await callTool(config, "echo", { message: "two" }, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "Echo: two" });
    expect(poolStats().connects - before).toBe(2);
  });

  it("a server that crashes mid-call fails the call as unreachable; later calls reconnect after the backoff", async () => {
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    const config = stdioConfig(process.execPath, [TEST_SERVER_BIN, "--stdio"]);
    const f = await failureOf(callTool(config, "crash", {}, { timeoutMs: 5000 }));
    expect(f.kind).toBe("unreachable");
    expect(status(config.id)).toMatchObject({ state: "error", error: { kind: "unreachable" } });
    // While backing off, a turn gets the failure at once: no new connection is tried.
    const connects = poolStats().connects;
    const fast = await failureOf(acquire(config));
    expect(poolStats().connects).toBe(connects);
    expect(fast.message).toMatch(/next attempt in/);
    await new Promise((r) => setTimeout(r, 250));
    expect((await callTool(config, "echo", { message: "back" }, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "Echo: back" });
  });

  // Issue 21.2: an HTTP or SSE server whose process dies mid-call is noticed at once, not after the
  // call timeout (20 s here). The call is known to run when its first progress arrives; then the
  // process is killed (SIGKILL).
  const longRun = { tool: "trigger-long-running-operation", args: { duration: 15, steps: 50 } };
  const killCases = [
    { server: "a Streamable HTTP server", start: () => startTestServer(), transport: "http", tool: "slow_progress", args: { steps: 50, stepMs: 200 } },
    {
      server: "a resumable Streamable HTTP server (server-everything; its broken stream is checked with a ping)",
      start: () => startEverything(),
      transport: "http",
      ...longRun,
    },
    { server: "an SSE server", start: () => startEverythingSse(), transport: "sse", ...longRun },
  ] as const;
  for (const c of killCases) {
    it(`${c.server} killed mid-call fails the call as unreachable and marks the server failed`, async () => {
      const server = await c.start();
      started.push(server);
      const config = httpConfig(server.url, { transport: c.transport });
      let killed: Promise<void> | undefined;
      const f = await failureOf(callTool(config, c.tool, c.args, { timeoutMs: 20_000, onProgress: () => void (killed ??= server.stop()) }));
      expect(killed).toBeDefined();
      expect(f.kind).toBe("unreachable");
      expect(status(config.id)).toMatchObject({ state: "error", error: { kind: "unreachable" } });
    });
  }

  it("a call that hangs times out, and the session stays usable", async () => {
    const server = await startTestServer();
    started.push(server);
    const config = httpConfig(server.url);
    // Connected first, so the 300 ms are the hanging call's alone, however slow connecting is. The tool
    // never answers: only the call's timeout ends it.
    await callTool(config, "echo", { message: "first" }, { timeoutMs: 10_000 });
    const f = await failureOf(callTool(config, "hang", {}, { timeoutMs: 300, signal: AbortSignal.timeout(300) }));
    expect(f.kind).toBe("timeout");
    expect(status(config.id).state).toBe("connected");
    expect((await callTool(config, "echo", { message: "still here" }, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "Echo: still here" });
  });

  it("refreshes the cached tool list on notifications/tools/list_changed", async () => {
    const server = await startTestServer();
    started.push(server);
    const config = httpConfig(server.url);
    expect((await listTools(config)).map((t) => t.name)).not.toContain("added_1");
    await callTool(config, "add_tool", {}, { timeoutMs: 5000 });
    await expect.poll(async () => (await acquire(config, { ping: false })).tools.map((t) => t.name), { timeout: 3000 }).toContain("added_1");
    expect((await callTool(config, "added_1", {}, { timeoutMs: 5000 })).content[0]).toMatchObject({ text: "added_1 ran" });
  });

  it("says exactly why a server cannot be reached: refused, HTTP status, stuck past the connect timeout", async () => {
    const closed = await freePort();
    const refused = await failureOf(acquire(httpConfig(`http://127.0.0.1:${closed}/mcp`)));
    expect(refused.kind).toBe("unreachable");
    expect(refused.message).toMatch(/ECONNREFUSED|fetch failed/);

    const server = await startTestServer();
    started.push(server);
    const wrongPath = await failureOf(acquire(httpConfig(server.url.replace("/mcp", "/nope"))));
    expect(wrongPath.kind).toBe("http");
    expect(wrongPath.status).toBe(404);

    const stuck = await startTestServer({ hang: true });
    started.push(stuck);
    // The stuck server never answers: only its connect timeout ends the attempt, and the message names it.
    const timeout = await failureOf(acquire(httpConfig(stuck.url, { connectTimeoutMs: 400 })));
    expect(timeout.kind).toBe("timeout");
    expect(timeout.message).toMatch(/within its connect timeout \(0\.4 s\)/);
  });

  it("rebuilds the session when the server's settings change", async () => {
    const config = httpConfig(everything.url);
    const first = await acquire(config);
    expect(await acquire(config)).toBe(first);
    const changed = await acquire({ ...config, headers: { "X-Team": "blue" } });
    expect(changed).not.toBe(first);
  });
});
