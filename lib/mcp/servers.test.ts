// Admin changes to MCP servers: bad input is refused with field errors and writes nothing, secrets are
// encrypted and never in the audit log, and another team's servers do not exist for you.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { makeUser, startTestApp, DRIVERS } from "../../test/support/test-app";
import { saveSelection } from "../tools/selection";
import { closeAll } from "./pool";
import { probeServer } from "./probe";
import { mcpServerFormSchema } from "./server-schema";
import { createServer, deleteServer, setServerEnabled, setToolEnabled, updateServer } from "./server-admin";
import { getServer, getServerForAdmin, listServers, serverConfig } from "./servers";
import { startTestServer, type RunningServer } from "../../test/support/test-servers";
import { parseForm } from "../validation";

let stop: () => Promise<void>;
let server: RunningServer;

beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  server = await startTestServer();
});
afterAll(async () => {
  await closeAll();
  await server?.stop();
  await stop?.();
});

async function team(role: "admin" | "member" = "admin"): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser(role);
  const t = await prisma.team.create({ data: { name: `Team ${user.id}` } });
  await prisma.membership.create({ data: { teamId: t.id, userId: user.id, role } });
  return { user: { id: user.id, name: user.name, email: user.email }, team: { id: t.id, name: t.name, role }, teams: [] };
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries({ transport: "http", connectTimeoutSec: "10", callTimeoutSec: "60", enabled: "on", ...fields })) f.set(k, v);
  return f;
}

function fieldErrors(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (err) {
    if (err instanceof ZodError) return Object.fromEntries(err.issues.map((i) => [i.path.join("."), i.message]));
    throw err;
  }
  return {};
}

describe("MCP server admin", () => {
  it("refuses an invalid URL, a missing name and stdio when not allowed, with field errors", () => {
    expect(fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: "x", url: "not a url" })))).toHaveProperty("url");
    expect(fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: "x", url: "ftp://example.com" })))).toHaveProperty("url");
    expect(fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: " ", url: "https://example.com/mcp" })))).toHaveProperty("name");
    delete process.env.PARLEY_ALLOW_STDIO_MCP;
    const stdio = fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: "x", transport: "stdio", command: "npx" })));
    expect(stdio.transport).toContain("PARLEY_ALLOW_STDIO_MCP");
    process.env.PARLEY_ALLOW_STDIO_MCP = "1";
    expect(fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: "x", transport: "stdio", command: "npx" })))).toEqual({});
    delete process.env.PARLEY_ALLOW_STDIO_MCP;
    expect(fieldErrors(() => parseForm(mcpServerFormSchema, form({ name: "x", url: "https://e.com/mcp", headers: "no colon here" })))).toHaveProperty(
      "headers",
    );
    expect(parseForm(mcpServerFormSchema, form({ name: "x", url: "https://e.com/mcp" }))).toMatchObject({ connectTimeoutSec: 10, callTimeoutSec: 60 });
  });

  it("stores secrets encrypted, shows them masked, audits without them, and refuses a duplicate name", async () => {
    const ctx = await team();
    const input = parseForm(mcpServerFormSchema, form({ name: "Wiki", url: server.url, headers: "X-Api-Key: key-abcdef-123", bearerToken: "tok-secret-9876" }));
    const { id } = await createServer(ctx, input);
    const prisma = await db();
    const row = await prisma.mcpServer.findUniqueOrThrow({ where: { id } });
    expect(row.headersEnc).not.toContain("key-abcdef-123");
    expect(serverConfig(row).headers).toEqual({ "X-Api-Key": "key-abcdef-123", Authorization: "Bearer tok-secret-9876" });
    const view = await getServerForAdmin(ctx, id);
    expect(view.secrets).toEqual({ headerNames: ["X-Api-Key"], bearerHint: "••••9876", envNames: [] });
    expect(JSON.stringify(view)).not.toContain("tok-secret");

    await expect(createServer(ctx, { ...input, name: "wiki" })).rejects.toMatchObject({ status: 409, fieldErrors: { name: expect.any(String) } });
    expect(await prisma.mcpServer.count({ where: { teamId: ctx.team.id } })).toBe(1);

    // Editing with the secret fields empty keeps them; the audit log names what changed, never values.
    await updateServer(ctx, id, { ...input, headers: "", bearerToken: "", callTimeoutSec: 30 });
    const after = await prisma.mcpServer.findUniqueOrThrow({ where: { id } });
    expect(serverConfig(after).headers).toEqual({ "X-Api-Key": "key-abcdef-123", Authorization: "Bearer tok-secret-9876" });
    expect(after.callTimeoutMs).toBe(30_000);
    await setServerEnabled(ctx, id, false);
    const events = await prisma.auditEvent.findMany({ where: { teamId: ctx.team.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.action)).toEqual(["mcp.server.create", "mcp.server.update", "mcp.server.disable"]);
    expect(events[1].data).toMatchObject({ changed: ["callTimeoutMs"] });
    expect(JSON.stringify(events)).not.toMatch(/key-abcdef|tok-secret/);
    expect((await getServer(ctx, id)).status.state).toBe("disabled");
  });

  it("test connection lists the tools and stores them; members read them; other teams get 404", async () => {
    const admin = await team();
    const { id } = await createServer(admin, parseForm(mcpServerFormSchema, form({ name: "Test", url: server.url })));
    const probe = await probeServer(admin, id);
    expect(probe.ok).toBe(true);
    if (probe.ok) expect(probe.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "hang", "search"]));
    const listed = await listServers(admin.team.id);
    expect(listed[0].tools.find((t) => t.name === "echo")).toMatchObject({
      description: "Echoes back the message",
      annotations: { readOnlyHint: true },
      enabled: true,
    });
    expect(listed[0].status.state).toBe("connected");

    const stranger = await team();
    await expect(getServer(stranger, id)).rejects.toMatchObject({ status: 404 });
    await expect(updateServer(stranger, id, parseForm(mcpServerFormSchema, form({ name: "Mine", url: server.url })))).rejects.toMatchObject({ status: 404 });
    await expect(deleteServer(stranger, id)).rejects.toMatchObject({ status: 404 });
    await expect(probeServer(stranger, id)).rejects.toMatchObject({ status: 404 });
    const echoId = listed[0].tools.find((t) => t.name === "echo")!.id;
    await expect(setToolEnabled(stranger, echoId, false)).rejects.toMatchObject({ status: 404 });
    const prisma = await db();
    const strangerChat = await prisma.chat.create({ data: { teamId: stranger.team.id, userId: stranger.user.id } });
    await expect(saveSelection(stranger.team.id, strangerChat.id, { servers: [id], tools: [echoId] })).rejects.toMatchObject({ status: 404 });
    expect((await prisma.chat.findUniqueOrThrow({ where: { id: strangerChat.id } })).toolSelection).toBeNull();

    await deleteServer(admin, id);
    expect(await prisma.mcpTool.count({ where: { serverId: id } })).toBe(0);
  });

  it("test connection shows the exact failure", async () => {
    const ctx = await team();
    const { id } = await createServer(ctx, parseForm(mcpServerFormSchema, form({ name: "Gone", url: "http://127.0.0.1:9/mcp", connectTimeoutSec: "2" })));
    const probe = await probeServer(ctx, id);
    expect(probe).toMatchObject({ ok: false, kind: "unreachable" });
    const wrong = await createServer(ctx, parseForm(mcpServerFormSchema, form({ name: "Wrong path", url: server.url.replace("/mcp", "/other") })));
    expect(await probeServer(ctx, wrong.id)).toMatchObject({ ok: false, kind: "http", message: expect.stringContaining("404") });
  });
});
