// An MCP server's token and headers go only to the server they were saved for; metadata and
// link-local URLs are refused when saved and when connecting; private addresses need the operator's
// opt-in; "Test connection" shows an HTTP failure's status, never the body of the server's error.
// Real database, real MCP server, capture servers on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db } from "../db/client";
import { startScripted } from "@/test/support/test-upstreams";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, makeUser, startTestApp } from "@/test/support/test-app";
import { parseForm } from "../validation";
import { openConnection } from "./connection";
import { closeAll } from "./pool";
import { probeServer } from "./probe";
import { mcpServerFormSchema } from "./server-schema";
import { createServer, updateServer } from "./server-admin";
import { serverConfig } from "./servers";
import { startTestServer, type RunningServer } from "@/test/support/test-servers";

let stop: () => Promise<void>;
let server: RunningServer;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
  server = await startTestServer();
}, 120_000);
afterAll(async () => {
  await closeAll();
  await server?.stop();
  await stop?.();
});

async function team(): Promise<TeamContext> {
  const prisma = await db();
  const user = await makeUser("admin");
  const t = await prisma.team.create({ data: { name: `Team ${user.id}` } });
  await prisma.membership.create({ data: { teamId: t.id, userId: user.id, role: "admin" } });
  return { user: { id: user.id, name: user.name, email: user.email }, team: { id: t.id, name: t.name, role: "admin" }, teams: [] };
}

const input = (fields: Record<string, string>) =>
  parseForm(mcpServerFormSchema, { transport: "http", connectTimeoutSec: "5", callTimeoutSec: "60", enabled: "on", headers: "", bearerToken: "", ...fields });

function urlError(url: string): string | undefined {
  try {
    input({ name: "x", url });
  } catch (err) {
    if (err instanceof ZodError) return err.issues.find((i) => i.path[0] === "url")?.message;
    throw err;
  }
  return undefined;
}

describe("MCP server secrets and targets", () => {
  it("a URL on another server needs the token and headers again; the capture server never sees them", async () => {
    const thief = await startScripted((_req, res) => {
      res.writeHead(404).end();
    });
    try {
      const ctx = await team();
      const { id } = await createServer(ctx, input({ name: "Wiki", url: server.url, headers: "X-Api-Key: key-STORED-123", bearerToken: "tok-STORED-9876" }));
      const moved = input({ name: "Wiki", url: `${thief.url}/mcp` });
      await expect(updateServer(ctx, id, moved)).rejects.toMatchObject({
        status: 400,
        fieldErrors: { headers: expect.stringMatching(/enter this secret again/) },
      });
      await expect(updateServer(ctx, id, { ...moved, headers: "X-Api-Key: new" })).rejects.toMatchObject({
        status: 400,
        fieldErrors: { bearerToken: expect.any(String) },
      });
      const prisma = await db();
      const row = await prisma.mcpServer.findUniqueOrThrow({ where: { id } });
      expect(row.url).toBe(server.url);
      // A row whose URL changed outside the form does not give its secrets to the new server.
      expect(() => serverConfig({ ...row, url: `${thief.url}/mcp` })).toThrow(/another server/);
      expect(await probeServer(ctx, id)).toMatchObject({ ok: true });

      // Entered again (or cleared), the move is accepted; the same server keeps them without re-entry.
      await updateServer(ctx, id, { ...moved, clearSecrets: true });
      expect((await prisma.mcpServer.findUniqueOrThrow({ where: { id } })).headersEnc).toBeNull();
      await probeServer(ctx, id);
      expect(JSON.stringify(thief.requests)).not.toMatch(/STORED/);
      expect(thief.requests.length).toBeGreaterThan(0);
    } finally {
      await thief.stop();
    }
  });

  it("refuses metadata and link-local URLs at save, private ones without the opt-in", () => {
    expect(urlError("http://169.254.169.254/mcp")).toMatch(/metadata or link-local/);
    expect(urlError("http://[fd00:ec2::254]/mcp")).toMatch(/metadata or link-local/);
    expect(urlError("http://metadata.google.internal/mcp")).toMatch(/metadata service/);
    expect(urlError("http://100.100.100.200/mcp")).toMatch(/metadata or link-local/);
    expect(urlError("http://10.0.0.8/mcp")).toMatch(/PARLEY_ALLOW_PRIVATE_URLS/);
    process.env.PARLEY_ALLOW_PRIVATE_URLS = "1";
    try {
      expect(urlError("http://10.0.0.8/mcp")).toBeUndefined();
      expect(urlError("http://169.254.169.254/mcp")).toMatch(/metadata or link-local/);
    } finally {
      delete process.env.PARLEY_ALLOW_PRIVATE_URLS;
    }
    expect(urlError(server.url)).toBeUndefined();
  });

  it("refuses to connect to a link-local address that got past the form", async () => {
    // Refused before any connection: a try would have ended as a timeout or unreachable, not as config.
    const failure = await openConnection({
      id: "x",
      name: "meta",
      transport: "http",
      url: "http://169.254.169.254/mcp",
      headers: { Authorization: "Bearer t" },
      connectTimeoutMs: 5000,
      callTimeoutMs: 5000,
    }).then(
      () => undefined,
      (e: unknown) => e as { kind: string; message: string },
    );
    expect(failure).toMatchObject({ kind: "config", message: expect.stringMatching(/cloud-metadata or link-local/) });
  });

  it("Test connection shows the status of an HTTP failure, not the body of the server's error", async () => {
    const internal = await startScripted((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("java.sql.SQLException: password=INTERNAL-DB-PASSWORD at db.internal:5432");
    });
    try {
      const ctx = await team();
      const { id } = await createServer(ctx, input({ name: "Internal", url: `${internal.url}/mcp` }));
      const probe = await probeServer(ctx, id);
      expect(probe).toMatchObject({ ok: false, kind: "http", message: expect.stringContaining("HTTP 500") });
      expect(JSON.stringify(probe)).not.toMatch(/INTERNAL-DB-PASSWORD|SQLException/);
    } finally {
      await internal.stop();
    }
  });
});
