// The other team events where they happen (real database, a real MCP server on loopback): an accepted
// invite announces member.joined; a budget past its warning share announces budget.warning and a budget
// used up budget.exceeded, each once per month however many turns see it; an MCP server whose shared
// session starts failing announces mcp.server_down once per outage, and again for the next outage after
// it worked in between.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { probeServer } from "../mcp/probe";
import { closeAll } from "../mcp/pool";
import { acceptInvite, createInvite } from "../teams/invites";
import { BudgetExceeded, holdTurnBudget } from "../usage/budgets";
import { DATABASES, makeUser, startTestApp, teamMember } from "../../test/support/test-app";
import { startTestServer, type RunningServer } from "../../test/support/test-servers";

describe.each(DATABASES)("team events where they happen ($name)", (driver) => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    app = await startTestApp(driver);
  });
  afterAll(async () => {
    await closeAll();
    await app.stop();
  });

  async function adminOfNewTeam() {
    const team = await (await db()).team.create({ data: { name: "Events" } });
    return teamMember(team.id, "Ada Admin", "admin");
  }
  async function events(teamId: string, kind: string) {
    const rows = await (await db()).teamEvent.findMany({ where: { teamId, kind }, orderBy: { seq: "asc" } });
    return rows.map((r) => r.data as Record<string, unknown>);
  }

  it("announces who joined through an invite", async () => {
    const admin = await adminOfNewTeam();
    const { token } = await createInvite(admin, { role: "member", days: 7 });
    const user = await makeUser("Nina New");
    await acceptInvite(user.id, token);
    expect(await events(admin.team.id, "member.joined")).toEqual([
      expect.objectContaining({ member: { id: user.id, name: "Nina New", email: user.email }, role: "member" }),
    ]);
  });

  it("announces a budget's warning and its end once a month, however many turns see them", async () => {
    const admin = await adminOfNewTeam();
    const prisma = await db();
    const model = await prisma.model.create({
      data: { provider: { create: { teamId: admin.team.id, name: "p", kind: "openai_chat" } }, modelId: "m", displayName: "m" },
    });
    const budget = await prisma.budget.create({ data: { teamId: admin.team.id, scope: "team", metric: "cost", limit: 10 } });
    const subject = {
      teamId: admin.team.id,
      userId: admin.user.id,
      modelRowId: model.id,
      modelName: "m",
      prices: { inputPrice: 0, cachedInputPrice: 0, outputPrice: 0 },
    };
    const spend = (cost: number) =>
      prisma.usageRecord.create({
        data: { teamId: admin.team.id, userId: admin.user.id, modelRowId: model.id, model: "m", inputTokens: 1, outputTokens: 1, cost },
      });
    await spend(8.5);
    // Three turns start, one after the other (each gives its reservation back, as a finished turn does).
    for (let i = 0; i < 3; i++) {
      await holdTurnBudget(prisma, subject);
      await prisma.budgetReservation.deleteMany({ where: { teamId: admin.team.id } });
    }
    expect(await events(admin.team.id, "budget.warning")).toEqual([
      expect.objectContaining({ budgetId: budget.id, scope: "team", metric: "cost", used: expect.any(Number), limit: 10, member: null }),
    ]);
    await spend(2);
    for (let i = 0; i < 2; i++) await expect(holdTurnBudget(prisma, subject)).rejects.toBeInstanceOf(BudgetExceeded);
    const exceeded = await events(admin.team.id, "budget.exceeded");
    expect(exceeded).toEqual([expect.objectContaining({ budgetId: budget.id, used: 10.5, limit: 10 })]);
    expect(await events(admin.team.id, "budget.warning")).toHaveLength(1);
  });

  it("announces an MCP server going down once per outage", async () => {
    const admin = await adminOfNewTeam();
    const prisma = await db();
    let server: RunningServer = await startTestServer();
    const row = await prisma.mcpServer.create({ data: { teamId: admin.team.id, name: "Docs", transport: "http", url: server.url } });
    try {
      expect((await probeServer(admin, row.id)).ok).toBe(true);
      await server.stop();
      expect((await probeServer(admin, row.id)).ok).toBe(false);
      await expect.poll(() => events(admin.team.id, "mcp.server_down")).toEqual([expect.objectContaining({ serverId: row.id, serverName: "Docs" })]);
      // Still down: no second event.
      expect((await probeServer(admin, row.id)).ok).toBe(false);
      // Back, then down again: a new outage.
      server = await startTestServer({ port: server.port });
      expect((await probeServer(admin, row.id)).ok).toBe(true);
      await expect.poll(() => prisma.teamEvent.count({ where: { onceKey: `mcp.server_down:${row.id}` } })).toBe(0);
      expect(await events(admin.team.id, "mcp.server_down")).toHaveLength(1);
      await server.stop();
      expect((await probeServer(admin, row.id)).ok).toBe(false);
      await expect.poll(async () => (await events(admin.team.id, "mcp.server_down")).length).toBe(2);
    } finally {
      await server.stop();
    }
  });
});
