// Admin policy and members' always-allow on a real database: what a turn offers and what waits,
// always-allow only for tools that ask, and an admin's policy change clearing those choices.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import type { TeamContext } from "../teams/team-context";
import { DRIVERS, makeUser, startTestApp } from "../../test/support/test-app";
import { getServerForAdmin } from "../mcp/servers";
import { setServerDefaultPolicy, setServerTrustReadOnly, setToolPolicy } from "./policy-admin";
import { listAlwaysAllowed, setAlwaysAllow } from "./preferences";
import type { OfferedTool } from "../approvals/turn-policy";
import { approvalDecider } from "../approvals/turn-policy";

let stop: () => Promise<void>;
beforeAll(async () => {
  ({ stop } = await startTestApp(DRIVERS[0]));
});
afterAll(() => stop?.());

async function setup() {
  const prisma = await db();
  const user = await makeUser();
  const team = await prisma.team.create({ data: { name: "T" } });
  await prisma.membership.create({ data: { teamId: team.id, userId: user.id, role: "admin" } });
  const ctx: TeamContext = { user: { id: user.id, name: user.name, email: user.email }, team: { id: team.id, name: "T", role: "admin" }, teams: [] };
  const server = await prisma.mcpServer.create({ data: { teamId: team.id, name: "files", transport: "http", url: "http://127.0.0.1:1/mcp" } });
  const write = await prisma.mcpTool.create({ data: { serverId: server.id, name: "write", annotations: { readOnlyHint: false } } });
  const read = await prisma.mcpTool.create({ data: { serverId: server.id, name: "read", annotations: { readOnlyHint: true } } });
  return { ctx, server, write, read };
}

function offered(
  server: { id: string },
  tool: { id: string; name: string; policy: string | null; annotations: unknown },
  serverDefault: string | null,
): OfferedTool {
  return {
    modelName: `files__${tool.name}`,
    serverId: server.id,
    serverName: "files",
    toolId: tool.id,
    toolName: tool.name,
    annotations: tool.annotations as Record<string, unknown>,
    toolPolicy: tool.policy as OfferedTool["toolPolicy"],
    serverDefaultPolicy: serverDefault as OfferedTool["serverDefaultPolicy"],
  };
}

describe("policy administration", () => {
  it("new tools ask, a read-only hint only on a server the admin trusts; always-allow lifts ask for that member only", async () => {
    const { ctx, server, write, read } = await setup();
    let decide = await approvalDecider(ctx.user.id);
    expect(decide(offered(server, write, null))).toEqual({ offer: true, needsApproval: true });
    // Annotations are hints: a tool the server marks read-only asks…
    expect(decide(offered(server, read, null))).toEqual({ offer: true, needsApproval: true });
    // …until the admin opts the server in.
    expect(decide({ ...offered(server, read, null), trustReadOnly: true })).toEqual({ offer: true, needsApproval: false });
    await setServerTrustReadOnly(ctx, server.id, true);
    await setAlwaysAllow(ctx, write.id, true);
    decide = await approvalDecider(ctx.user.id);
    expect(decide(offered(server, write, null))).toEqual({ offer: true, needsApproval: false });
    const other = await makeUser();
    expect((await approvalDecider(other.id))(offered(server, write, null)).needsApproval).toBe(true);
    // A tool that already runs cannot be "always allowed"; one that is denied neither.
    await expect(setAlwaysAllow(ctx, read.id, true)).rejects.toMatchObject({ status: 409 });
  });

  it("deny is never offered and cannot be always-allowed; a policy change clears always-allow", async () => {
    const { ctx, server, write } = await setup();
    await setAlwaysAllow(ctx, write.id, true);
    expect(await listAlwaysAllowed(ctx)).toHaveLength(1);
    await setToolPolicy(ctx, write.id, "deny");
    expect(await listAlwaysAllowed(ctx)).toHaveLength(0);
    const row = await (await db()).mcpTool.findUniqueOrThrow({ where: { id: write.id } });
    expect((await approvalDecider(ctx.user.id))(offered(server, row, null))).toEqual({ offer: false });
    await expect(setAlwaysAllow(ctx, write.id, true)).rejects.toMatchObject({ status: 409 });
    const audit = await (await db()).auditEvent.findFirstOrThrow({ where: { teamId: ctx.team.id, action: "mcp.tool.policy" } });
    expect(audit.data).toMatchObject({ tool: "write", to: "deny", clearedAlwaysAllow: 1 });
  });

  it("the server default applies to tools without their own policy, and clears always-allow", async () => {
    const { ctx, server, write, read } = await setup();
    await setAlwaysAllow(ctx, write.id, true);
    await setServerDefaultPolicy(ctx, server.id, "ask");
    expect((await getServerForAdmin(ctx, server.id)).defaultPolicy).toBe("ask");
    expect(await listAlwaysAllowed(ctx)).toHaveLength(0);
    const decide = await approvalDecider(ctx.user.id);
    expect(decide(offered(server, read, "ask")).needsApproval).toBe(true); // read-only, but the server says ask
    await setToolPolicy(ctx, read.id, "auto");
    const readRow = await (await db()).mcpTool.findUniqueOrThrow({ where: { id: read.id } });
    expect((await approvalDecider(ctx.user.id))(offered(server, readRow, "ask")).needsApproval).toBe(false);
  });

  it("another team's tools and servers are 404", async () => {
    const a = await setup();
    const b = await setup();
    await expect(setToolPolicy(b.ctx, a.write.id, "auto")).rejects.toMatchObject({ status: 404 });
    await expect(setServerDefaultPolicy(b.ctx, a.server.id, "auto")).rejects.toMatchObject({ status: 404 });
    await expect(setAlwaysAllow(b.ctx, a.write.id, true)).rejects.toMatchObject({ status: 404 });
  });
});
