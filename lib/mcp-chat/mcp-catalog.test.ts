// Resources and prompts of a team's MCP servers for the composer, against server-everything and our
// test server on loopback: listed per server, a prompt's messages with arguments (bad arguments are a
// 400), attached resources read on the server (a huge one cut, a template filled in, an image kept),
// another team's server refused. And server-everything offers its elicitation tool only because
// Parley declares the capability; its form reads into every field kind.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { openConnection } from "../mcp/connection";
import { formOf } from "../mcp/elicitation-schema";
import type { ElicitationRequest } from "../mcp/elicitation-routing";
import { closeAll } from "../mcp/pool";
import { DRIVERS, rejection, startTestApp } from "@/test/support/test-app";
import { httpConfig, startEverything, startTestServer, type RunningServer } from "@/test/support/test-servers";
import { teamWithProvider } from "@/test/support/test-turns";
import { MAX_ATTACHMENT_CHARS, promptMessages, readAttachments, teamCatalog } from "./mcp-catalog";

let stop: () => Promise<void>;
let everything: RunningServer;
let ours: RunningServer;

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  [everything, ours] = await Promise.all([startEverything(), startTestServer()]);
}, 180_000);
afterAll(async () => {
  await closeAll();
  await Promise.all([everything?.stop(), ours?.stop()]);
  await stop?.();
});

async function team() {
  const { ctx } = await teamWithProvider("http://127.0.0.1:9", "openai_chat");
  const prisma = await db();
  const mk = (name: string, url: string) => prisma.mcpServer.create({ data: { teamId: ctx.team.id, name, transport: "http", url } });
  return { ctx, everythingRow: await mk("everything", everything.url), oursRow: await mk("ours", ours.url) };
}

describe("MCP resources and prompts", () => {
  it("lists each server's resources, templates and prompts", async () => {
    const { ctx } = await team();
    const servers = await teamCatalog(ctx);
    const o = servers.find((s) => s.name === "ours")!;
    expect(o.resources.map((r) => r.uri).sort()).toEqual(["test://dot.png", "test://huge", "test://readme"]);
    expect(o.templates).toMatchObject([{ uriTemplate: "test://notes/{name}" }]);
    expect(o.prompts).toMatchObject([{ name: "review", arguments: [{ name: "language", required: true }, { name: "focus" }] }]);
    const e = servers.find((s) => s.name === "everything")!;
    expect(e.error).toBeUndefined();
    expect(e.prompts.length).toBeGreaterThan(0);
    expect(e.resources.length + e.templates.length).toBeGreaterThan(0);
  });

  it("a prompt with arguments gives its messages; missing arguments are the member's error (400)", async () => {
    const { ctx, oursRow } = await team();
    expect(await promptMessages(ctx, oursRow.id, "review", { language: "Go", focus: "errors" })).toEqual({
      messages: [{ role: "user", text: "Review this Go code, focusing on errors." }],
    });
    expect((await rejection(promptMessages(ctx, oursRow.id, "review", {}))).status).toBe(400);
  });

  it("attached resources are read on the server: a huge one is cut, a template filled in, an image kept; another team's server is 404", async () => {
    const { ctx, oursRow } = await team();
    const [huge, note, dot] = await readAttachments(ctx, [
      { serverId: oursRow.id, uri: "test://huge" },
      { serverId: oursRow.id, uri: "test://notes/shopping" },
      { serverId: oursRow.id, uri: "test://dot.png" },
    ]);
    expect(huge.text).toHaveLength(MAX_ATTACHMENT_CHARS);
    expect(huge.truncatedFrom).toBe(2_000_000);
    expect(note).toMatchObject({ serverName: "ours", text: "Note shopping: remember the milk." });
    expect(dot).toMatchObject({ mimeType: "image/png", image: expect.stringMatching(/^iVBOR/) });
    const other = await team();
    expect((await rejection(readAttachments(other.ctx, [{ serverId: oursRow.id, uri: "test://readme" }]))).status).toBe(404);
  });
});

describe("server-everything's elicitation", () => {
  it("is offered because Parley declares the capability, and its schema reads into every field kind", async () => {
    const conn = await openConnection(httpConfig(everything.url));
    try {
      expect(conn.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["trigger-elicitation-request", "trigger-url-elicitation"]));
      let asked: ElicitationRequest | undefined;
      const result = await conn.callTool(
        "trigger-elicitation-request",
        {},
        {
          timeoutMs: 10_000,
          elicit: async (request) => {
            asked = request;
            return { action: "decline" };
          },
        },
      );
      expect(JSON.stringify(result.content)).toMatch(/decline/i);
      expect(asked?.mode).toBe("form");
      const kinds = new Set(formOf(asked?.mode === "form" ? asked.requestedSchema : {}).fields.map((f) => f.kind));
      expect([...kinds].sort()).toEqual(["boolean", "enum", "integer", "multi", "number", "string"]);
    } finally {
      await conn.close();
    }
  });
});
