// Parley's MCP client against real servers of both revisions on loopback: our 2026-07-28 server on
// the SDK v2 server package (stateless; found with server/discover) and server-everything
// (2025-11-25: the discovery probe falls back to the initialize handshake), and our 2025-11-25 test
// server for a resource that changes. The same features on
// both: tools, structured output, progress, questions to the person, images, list changes,
// resources and their updates, prompts, liveness, a server that dies.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConnection, type McpConnection, type McpToolInfo } from "./connection";
import type { Elicit, ElicitationRequest } from "./elicitation-routing";
import type { McpFailure } from "./failures";
import {
  EVERYTHING_BIN,
  httpConfig,
  SERVER_2026_BIN,
  startEverything,
  startServer2026,
  startTestServer,
  stdioConfig,
  type RunningServer,
} from "../../test/support/test-servers";

let modern: RunningServer;
let legacy: RunningServer;
const opened: McpConnection[] = [];

beforeAll(async () => {
  [modern, legacy] = await Promise.all([startServer2026(), startEverything()]);
});
afterAll(async () => {
  await Promise.all(opened.map((c) => c.close()));
  await Promise.all([modern?.stop(), legacy?.stop()]);
});

async function open(url: string, events: Parameters<typeof openConnection>[1] = {}) {
  const conn = await openConnection(httpConfig(url), events);
  opened.push(conn);
  return conn;
}

const textOf = (res: { content: unknown[] }) =>
  (res.content as { type: string; text?: string }[])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

/** Resolves when `check` passes for a value `subscribe` hands on (no sleeping). */
function eventually<T>(subscribe: (fn: (v: T) => void) => void, check: (v: T) => boolean): Promise<T> {
  return new Promise((resolve) => subscribe((v) => check(v) && resolve(v)));
}

describe("a 2026-07-28 server (SDK v2, stateless)", () => {
  it("is discovered, not initialized, and says which revision it speaks", async () => {
    const conn = await open(modern.url);
    expect(conn.protocolVersion).toBe("2026-07-28");
    expect(conn.verdict?.kind).toBe("modern");
    expect(conn.serverInfo?.name).toBe("parley-test-2026");
    expect(conn.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "weather", "ask", "show_card"]));
    await conn.ping(AbortSignal.timeout(5000));
  });

  it("calls tools: text, an image, structured output, and output that breaks its schema", async () => {
    const conn = await open(modern.url);
    expect(textOf(await conn.callTool("echo", { message: "hi" }, { timeoutMs: 5000 }))).toBe("Echo: hi");
    const image = await conn.callTool("image", {}, { timeoutMs: 5000 });
    expect(image.content).toContainEqual(expect.objectContaining({ type: "image", mimeType: "image/png" }));
    expect((await conn.callTool("weather", {}, { timeoutMs: 5000 })).structuredContent).toEqual({ temperature: 21.5, conditions: "Sunny" });
    // The v2 server checks its own output: the result is an error saying so (Parley reads it as InvalidOutput).
    const broken = await conn.callTool("weather", { broken: true }, { timeoutMs: 5000 });
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/output validation error/i);
  });

  it("reports the server's progress, not the client's own rounds", async () => {
    const conn = await open(modern.url);
    const seen: number[] = [];
    await conn.callTool("slow_progress", { steps: 3, stepMs: 20 }, { timeoutMs: 5000, onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it("asks the person behind the call (a form over two rounds), and passes their answer back", async () => {
    const conn = await open(modern.url);
    const asked: ElicitationRequest[] = [];
    const elicit: Elicit = async (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Ada", colour: "red" } };
    };
    const res = await conn.callTool("ask", {}, { timeoutMs: 5000, elicit, onProgress: () => {} });
    expect(asked).toEqual([expect.objectContaining({ mode: "form", message: "Tell me about you." })]);
    expect(textOf(res)).toBe('Answer: accept {"name":"Ada","colour":"red"}');
    const url = await conn.callTool(
      "ask_url",
      { url: "https://billing.example/login" },
      { timeoutMs: 5000, elicit: async (r) => (asked.push(r), { action: "decline" }) },
    );
    expect(asked[1]).toMatchObject({ mode: "url", url: "https://billing.example/login" });
    expect(textOf(url)).toBe("URL answer: decline");
  });

  it("follows tool list changes and resource updates on its change stream", async () => {
    let onTools: (tools: McpToolInfo[]) => void = () => {};
    const conn = await open(modern.url, { onToolsChanged: (t) => onTools(t) });
    const changed = eventually<McpToolInfo[]>(
      (fn) => (onTools = fn),
      (t) => t.some((x) => x.name.startsWith("added_")),
    );
    await conn.callTool("add_tool", {}, { timeoutMs: 5000 });
    expect((await changed).map((t) => t.name)).toContain("added_1");

    let onUpdate = () => {};
    const stop = await conn.catalog.watchResource("test://notes/counter", () => onUpdate(), AbortSignal.timeout(5000));
    const updated = new Promise<void>((r) => (onUpdate = r));
    await conn.callTool("bump", {}, { timeoutMs: 5000 });
    await updated;
    const read = await conn.catalog.readResource("test://notes/counter", AbortSignal.timeout(5000));
    expect(read.contents[0]).toMatchObject({ text: "1" });
    await stop();
  });

  it("lists and reads resources and prompts", async () => {
    const conn = await open(modern.url);
    expect(conn.catalog.has("resources") && conn.catalog.has("prompts")).toBe(true);
    const { resources, templates } = await conn.catalog.listResources(AbortSignal.timeout(5000));
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(["test://readme", "test://dot.png"]));
    expect(templates.map((t) => t.uriTemplate)).toContain("test://notes/{name}");
    expect((await conn.catalog.readResource("test://readme", AbortSignal.timeout(5000))).contents[0]).toMatchObject({
      text: "The launch code word is PELICAN.",
    });
    expect((await conn.catalog.listPrompts(AbortSignal.timeout(5000))).map((p) => p.name)).toContain("review");
    const prompt = await conn.catalog.getPrompt("review", { language: "Go" }, AbortSignal.timeout(5000));
    expect(prompt.messages[0].content).toMatchObject({ text: "Review this Go code." });
  });

  it("a call that never answers times out; a server that dies fails the call as unreachable", async () => {
    const own = await startServer2026();
    const conn = await open(own.url);
    const hung = (await conn.callTool("hang", {}, { timeoutMs: 300, signal: AbortSignal.timeout(300) }).catch((e) => e)) as McpFailure;
    expect(hung.kind).toBe("timeout");
    const crashed = (await conn.callTool("crash", {}, { timeoutMs: 5000 }).catch((e) => e)) as McpFailure;
    expect(crashed.kind).toBe("unreachable");
    await own.stop();
  });

  it("a server that goes away while idle is noticed through its change stream", async () => {
    const own = await startServer2026();
    let onLost: (f: McpFailure) => void = () => {};
    const lost = new Promise<McpFailure>((r) => (onLost = r));
    await open(own.url, { onLost: (f) => onLost(f) });
    await own.stop();
    expect((await lost).kind).toBe("unreachable");
  });

  it("over stdio, as a child process", async () => {
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    try {
      const conn = await openConnection(stdioConfig(process.execPath, [SERVER_2026_BIN, "--stdio"]));
      opened.push(conn);
      expect(conn.protocolVersion).toBe("2026-07-28");
      expect(textOf(await conn.callTool("echo", { message: "pipe" }, { timeoutMs: 5000 }))).toBe("Echo: pipe");
    } finally {
      delete process.env.PARLEY_ALLOW_STDIO_MCP;
    }
  });
});

describe("a 2025-11-25 server (server-everything)", () => {
  it("falls back to the initialize handshake and works as before", async () => {
    const conn = await open(legacy.url);
    expect(conn.protocolVersion).toBe("2025-11-25");
    expect(conn.verdict).toEqual({ kind: "legacy" });
    await conn.ping(AbortSignal.timeout(5000));
    expect(textOf(await conn.callTool("echo", { message: "hi" }, { timeoutMs: 5000 }))).toBe("Echo: hi");
    const weather = await conn.callTool("get-structured-content", { location: "New York" }, { timeoutMs: 5000 });
    expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const image = await conn.callTool("get-tiny-image", {}, { timeoutMs: 5000 });
    expect(image.content).toContainEqual(expect.objectContaining({ type: "image" }));
  });

  it("skips the probe when told the server's era, and follows a resource with resources/subscribe", async () => {
    const ours = await startTestServer({ revision: "2025-11-25" });
    try {
      const conn = await open(ours.url, { prior: { kind: "legacy" } });
      expect(conn.protocolVersion).toBe("2025-11-25");
      let onUpdate = () => {};
      const stop = await conn.catalog.watchResource("test://notes/counter", () => onUpdate(), AbortSignal.timeout(5000));
      const updated = new Promise<void>((r) => (onUpdate = r));
      await conn.callTool("bump", {}, { timeoutMs: 5000 });
      await updated;
      expect((await conn.catalog.readResource("test://notes/counter", AbortSignal.timeout(5000))).contents[0]).toMatchObject({ text: "1" });
      await stop();
    } finally {
      await ours.stop();
    }
  });

  it("over stdio", async () => {
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    try {
      const conn = await openConnection(stdioConfig(process.execPath, [EVERYTHING_BIN, "stdio"]));
      opened.push(conn);
      expect(conn.protocolVersion).toBe("2025-11-25");
      expect(conn.tools.map((t) => t.name)).toContain("echo");
    } finally {
      delete process.env.PARLEY_ALLOW_STDIO_MCP;
    }
  });
});
